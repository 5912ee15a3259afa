import { idnoSchema, mobileSchema, smsCodeSchema } from '@zhikaoyun/shared';
import { App, Button, Drawer, Form, Input, Steps } from 'antd';
import { useRef, useState } from 'react';
import { CaptchaInput, type CaptchaHandle } from '../../../../components/CaptchaInput';
import { zodRule } from '../../../../lib/form-rules';
import { SmsCodeField } from '../../../../components/SmsCodeField';
import { usePhoneVerification } from '../../../../lib/api/sms';
import { getSecurityQuestion, resetPassword } from '../api';
import { NewPasswordFields } from './NewPasswordFields';

interface Step1 {
  idno: string;
  captcha: string;
}
interface Step2 {
  /** With phone verification: the account's phone, where the code goes, and the code. */
  mobile?: string;
  smsCode?: string;
  answer: string;
  newPassword: string;
  confirm: string;
  captcha: string;
}

/** 找回密码: the security question for an ID number, then a new password with the hint answer. */
export function RecoverPasswordDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { message } = App.useApp();
  const [form1] = Form.useForm<Step1>();
  const [form2] = Form.useForm<Step2>();
  const captcha1 = useRef<CaptchaHandle>(null);
  const captcha2 = useRef<CaptchaHandle>(null);
  const [found, setFound] = useState<{ idno: string; question: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const phoneVerification = usePhoneVerification();
  const smsRequest = async () => {
    try {
      const v = await form2.validateFields(['mobile', 'captcha']);
      return { mobile: v.mobile ?? '', captcha: v.captcha, captchaId: captcha2.current?.captchaId() ?? '' };
    } catch {
      return null;
    }
  };

  function close() {
    setFound(null);
    form1.resetFields();
    form2.resetFields();
    onClose();
  }

  async function ask(values: Step1) {
    setBusy(true);
    try {
      const { question } = await getSecurityQuestion({ ...values, captchaId: captcha1.current?.captchaId() ?? '' });
      setFound({ idno: values.idno, question });
    } catch {
      captcha1.current?.refresh();
    } finally {
      setBusy(false);
    }
  }

  async function reset(values: Step2) {
    if (!found) return;
    setBusy(true);
    try {
      await resetPassword({
        idno: found.idno,
        answer: values.answer,
        newPassword: values.newPassword,
        ...(phoneVerification ? { smsCode: values.smsCode } : {}),
        captcha: values.captcha,
        captchaId: captcha2.current?.captchaId() ?? '',
      });
      void message.success('密码已重置，请使用新密码登录');
      close();
    } catch {
      captcha2.current?.refresh();
    } finally {
      setBusy(false);
    }
  }

  return (
    <Drawer open={open} onClose={close} placement="bottom" size="large" title="找回密码" destroyOnHidden>
      <Steps size="small" current={found ? 1 : 0} items={[{ title: '验证身份' }, { title: '设置新密码' }]} className="recover-steps" />
      {!found ? (
        <Form<Step1> name="recover-identity" form={form1} layout="vertical" requiredMark={false} onFinish={(v) => void ask(v)}>
          <Form.Item
            name="idno"
            label="身份证号码"
            rules={[zodRule(idnoSchema)]}
            normalize={(v: string) => v.toUpperCase().replace(/\s/g, '')}
          >
            <Input size="large" maxLength={18} autoComplete="username" />
          </Form.Item>
          <Form.Item name="captcha" label="验证码" rules={[{ required: true, whitespace: true, message: '请输入验证码' }]}>
            <CaptchaInput ref={captcha1} />
          </Form.Item>
          <Button type="primary" htmlType="submit" size="large" block loading={busy}>
            下一步
          </Button>
        </Form>
      ) : (
        <Form<Step2> name="recover-reset" form={form2} layout="vertical" requiredMark={false} onFinish={(v) => void reset(v)}>
          <Form.Item label="密保问题">
            <p className="recover-question">{found.question}</p>
          </Form.Item>
          <Form.Item name="answer" label="提示答案" rules={[{ required: true, whitespace: true, message: '请输入提示答案' }]}>
            <Input size="large" maxLength={50} autoComplete="off" />
          </Form.Item>
          <NewPasswordFields name="newPassword" label="新密码" />
          {phoneVerification && (
            <>
              <Form.Item name="mobile" label="注册时的手机号码" rules={[zodRule(mobileSchema)]}>
                <Input size="large" maxLength={11} inputMode="numeric" autoComplete="tel" />
              </Form.Item>
              <Form.Item
                name="smsCode"
                label="短信验证码"
                rules={[zodRule(smsCodeSchema)]}
                extra="先填写手机号码和下方的图形验证码，再获取短信验证码。"
              >
                <SmsCodeField purpose="reset" request={smsRequest} onCaptchaUsed={() => captcha2.current?.refresh()} />
              </Form.Item>
            </>
          )}
          <Form.Item name="captcha" label="验证码" rules={[{ required: true, whitespace: true, message: '请输入验证码' }]}>
            <CaptchaInput ref={captcha2} />
          </Form.Item>
          <Button type="primary" htmlType="submit" size="large" block loading={busy}>
            重置密码
          </Button>
        </Form>
      )}
    </Drawer>
  );
}
