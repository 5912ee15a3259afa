import { Button, Form, Input } from 'antd';
import { lazy, Suspense, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { CaptchaInput, type CaptchaHandle } from '../../../components/CaptchaInput';
import { MobileContainerCard } from '../../../components/MobileContainerCard';
import { useSiteName } from '../../../components/site-name';
import { useHydrated } from '../../../lib/hydrated';
import { takeReturnTo } from '../../../lib/return-to';
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
  const ready = useHydrated();

  async function onFinish(values: FormValues) {
    setSubmitting(true);
    try {
      startSession(await login({ ...values, captchaId: captcha.current?.captchaId() ?? '' }));
      void navigate(takeReturnTo() ?? '/exam-list', { replace: true });
    } catch {
      // A captcha is single use: a new one, its field emptied (judged only on leaving it or on
      // submit, so no red 请输入验证码 before anything is typed). The password stays.
      captcha.current?.refresh();
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
        {/* Shown from the HTML at once; marked not yet usable until the script runs (what is typed meanwhile is kept). */}
        <Form<FormValues>
          name="login"
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={(v) => void onFinish(v)}
          aria-disabled={!ready}
        >
          <Form.Item
            name="idno"
            label="身份证号码"
            rules={[{ required: true, whitespace: true, message: '请输入身份证号码' }]}
            normalize={(v: string) => v.toUpperCase().replace(/\s/g, '')}
          >
            {/* Room for the spaces a pasted number brings (they are dropped): 18 after trimming. */}
            <Input size="large" maxLength={24} autoComplete="username" placeholder="注册时使用的身份证号码" />
          </Form.Item>
          <Form.Item name="password" label="密码" rules={[{ required: true, message: '请输入密码' }]}>
            <Input.Password size="large" maxLength={128} autoComplete="current-password" />
          </Form.Item>
          <Form.Item
            name="captcha"
            label="验证码"
            validateTrigger="onBlur"
            rules={[{ required: true, whitespace: true, message: '请输入验证码' }]}
          >
            <CaptchaInput ref={captcha} />
          </Form.Item>
          <Button type="primary" htmlType={ready ? 'submit' : 'button'} size="large" block loading={submitting}>
            登录
          </Button>
        </Form>
        <div className="account-page__links">
          <Link to="/register">注册账号</Link>
          <Button
            type="link"
            className="inline-link"
            aria-disabled={!ready}
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
