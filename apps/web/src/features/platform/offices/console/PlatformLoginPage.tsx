import { Alert, Button, Card, Form, Input } from 'antd';
import { useRef } from 'react';
import { CaptchaInput, type CaptchaHandle } from '../../../../components/CaptchaInput';
import { useSecondFactor, type SecondFactorValues } from '../../../../components/console/SecondFactorFields';
import { usePlatformSession } from '../../../../lib/platform-session';
import { SIGNED_OUT_TEXT } from '../../../../lib/session-expiry';
import { fetchPlatformCaptcha, usePlatformLogin } from './api';

interface Values extends SecondFactorValues {
  username: string;
  password: string;
  captcha: string;
}

/**
 * 平台管理员登录: username, password and the platform's own captcha (the same throttles as staff),
 * then 两步验证 once enrolled; why a session ended by itself.
 */
export default function PlatformLoginPage() {
  const captcha = useRef<CaptchaHandle>(null);
  const login = usePlatformLogin();
  const secondFactor = useSecondFactor();
  const signedOut = usePlatformSession((s) => s.signedOutReason);
  return (
    <div className="admin-login">
      <Card title="平台管理后台登录" className="admin-login__card">
        {signedOut && <Alert type="info" showIcon className="admin-password__notice" message={SIGNED_OUT_TEXT[signedOut]} />}
        <Form<Values>
          name="platform-login"
          layout="vertical"
          requiredMark={false}
          onFinish={({ username, password, captcha: code, ...factor }) =>
            login.mutate(
              { username, password, captcha: code, ...secondFactor.sent(factor), captchaId: captcha.current?.captchaId() ?? '' },
              {
                // A captcha is single use: a failed attempt needs a new one.
                onError: (error) => {
                  captcha.current?.refresh();
                  secondFactor.refused(error);
                },
              },
            )
          }
        >
          <Form.Item name="username" label="用户名" rules={[{ required: true, whitespace: true, message: '请输入用户名' }]}>
            <Input size="large" autoComplete="username" />
          </Form.Item>
          <Form.Item name="password" label="密码" rules={[{ required: true, message: '请输入密码' }]}>
            <Input.Password size="large" autoComplete="current-password" />
          </Form.Item>
          <Form.Item name="captcha" label="验证码" rules={[{ required: true, whitespace: true, message: '请输入验证码' }]}>
            <CaptchaInput ref={captcha} load={fetchPlatformCaptcha} audioPath="/api/platform/getCaptchaAudio" />
          </Form.Item>
          {secondFactor.fields}
          <Button type="primary" htmlType="submit" size="large" block loading={login.isPending}>
            登录
          </Button>
        </Form>
      </Card>
    </div>
  );
}
