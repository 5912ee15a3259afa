import { Button, Form, Input } from 'antd';
import { lazy, Suspense, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { CaptchaInput, type CaptchaHandle } from '../../../components/CaptchaInput';
import { MobileContainerCard } from '../../../components/MobileContainerCard';
import { useSiteName } from '../../../components/site-name';
import { login, startSession } from '../api';

// The recovery drawer (its steps, forms and the password rules) loads when first opened: it is
// not needed to show the login form.
const RecoverPasswordDrawer = lazy(() => import('../components/RecoverPasswordDrawer').then((m) => ({ default: m.RecoverPasswordDrawer })));

interface FormValues {
  idno: string;
  password: string;
  captcha: string;
}

/** 登录: ID number, password and captcha. */
export default function LoginPage() {
  const [form] = Form.useForm<FormValues>();
  const captcha = useRef<CaptchaHandle>(null);
  const navigate = useNavigate();
  const siteName = useSiteName();
  const [submitting, setSubmitting] = useState(false);
  const [recovering, setRecovering] = useState(false);
  // Once opened it stays mounted, so that closing it animates like any drawer.
  const [recoveryOpened, setRecoveryOpened] = useState(false);

  async function onFinish(values: FormValues) {
    setSubmitting(true);
    try {
      startSession(await login({ ...values, captchaId: captcha.current?.captchaId() ?? '' }));
      navigate('/exam-list', { replace: true });
    } catch {
      captcha.current?.refresh();
      form.setFieldValue('password', '');
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <div className="account-page">
      <div className="account-page__brand">
        <h2>{siteName}</h2>
        <p>考生登录</p>
      </div>
      <MobileContainerCard>
        <Form<FormValues> name="login" form={form} layout="vertical" requiredMark={false} onFinish={onFinish}>
          <Form.Item
            name="idno"
            label="身份证号码"
            rules={[{ required: true, whitespace: true, message: '请输入身份证号码' }]}
            normalize={(v: string) => v.toUpperCase().replace(/\s/g, '')}
          >
            <Input size="large" maxLength={18} autoComplete="username" placeholder="注册时使用的身份证号码" />
          </Form.Item>
          <Form.Item name="password" label="密码" rules={[{ required: true, message: '请输入密码' }]}>
            <Input.Password size="large" maxLength={128} autoComplete="current-password" />
          </Form.Item>
          <Form.Item name="captcha" label="验证码" rules={[{ required: true, whitespace: true, message: '请输入验证码' }]}>
            <CaptchaInput ref={captcha} />
          </Form.Item>
          <Button type="primary" htmlType="submit" size="large" block loading={submitting}>
            登录
          </Button>
        </Form>
        <div className="account-page__links">
          <Link to="/register">注册账号</Link>
          <Button
            type="link"
            className="inline-link"
            onClick={() => {
              setRecoveryOpened(true);
              setRecovering(true);
            }}
          >
            忘记密码？
          </Button>
        </div>
      </MobileContainerCard>
      {recoveryOpened && (
        <Suspense fallback={null}>
          <RecoverPasswordDrawer open={recovering} onClose={() => setRecovering(false)} />
        </Suspense>
      )}
    </div>
  );
}
