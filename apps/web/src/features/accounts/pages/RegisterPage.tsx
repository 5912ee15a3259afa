import {
  answerSchema,
  emailSchema,
  ErrorCode,
  idnoSchema,
  mobileSchema,
  nameSchema,
  questionSchema,
  type RegisterInput,
} from '@zhikaoyun/shared';
import { Alert, AutoComplete, Button, Checkbox, Form, Input } from 'antd';
import { useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { CaptchaInput, type CaptchaHandle } from '../../../components/CaptchaInput';
import { MobileContainerCard } from '../../../components/MobileContainerCard';
import { useSiteName } from '../../../components/site-name';
import { zodRule } from '../../../lib/form-rules';
import { RequestError } from '../../../lib/http';
import { register, startSession } from '../api';
import { AgreementModal } from '../components/AgreementModal';
import { AppealDrawer } from '../components/AppealDrawer';
import { QUESTION_SUGGESTIONS } from '../components/question-suggestions';
import { NewPasswordFields } from '../components/NewPasswordFields';

interface FormValues extends Omit<RegisterInput, 'captchaId' | 'agree' | 'consent'> {
  confirm: string;
  agree: boolean;
  consent: boolean;
}

const mustCheck = (message: string) => ({
  validator: async (_: unknown, value: boolean) => {
    if (!value) throw new Error(message);
  },
});

/** 注册账号: one account per ID number; registration also logs the candidate in. */
export default function RegisterPage() {
  const [form] = Form.useForm<FormValues>();
  const captcha = useRef<CaptchaHandle>(null);
  const navigate = useNavigate();
  const siteName = useSiteName();
  const [agreementOpen, setAgreementOpen] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  // The ID number was taken: offer the appeal path beside the error.
  const [taken, setTaken] = useState(false);
  const [appealing, setAppealing] = useState(false);

  async function onFinish(values: FormValues) {
    setSubmitting(true);
    try {
      const { confirm: _confirm, ...rest } = values;
      const result = await register({ ...rest, agree: true, consent: true, captchaId: captcha.current?.captchaId() ?? '' });
      startSession(result);
      navigate('/exam-list', { replace: true });
    } catch (err) {
      // The client has shown why; a captcha is single use, so a new one is due.
      captcha.current?.refresh();
      if (err instanceof RequestError && Number(err.errorCode) === ErrorCode.IdnoRegistered) setTaken(true);
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <div className="account-page">
      <MobileContainerCard>
        <p className="account-page__lead">欢迎使用{siteName}。请使用本人居民身份证号码注册，一个身份证号码只能注册一个账号。</p>
        <Form<FormValues>
          name="register"
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={onFinish}
          scrollToFirstError
          validateTrigger="onBlur"
        >
          <Form.Item
            name="idno"
            label="身份证号码"
            rules={[zodRule(idnoSchema)]}
            normalize={(v: string) => v.toUpperCase().replace(/\s/g, '')}
          >
            <Input size="large" maxLength={18} autoComplete="off" placeholder="18 位居民身份证号码" />
          </Form.Item>
          <Form.Item name="name" label="姓名" rules={[zodRule(nameSchema)]}>
            <Input size="large" maxLength={30} autoComplete="name" placeholder="与身份证一致" />
          </Form.Item>
          <NewPasswordFields name="password" label="密码" extra="至少 8 位，可以是一句好记的话；不要使用常见密码。" />
          <Form.Item name="mobile" label="手机号码" rules={[zodRule(mobileSchema)]}>
            <Input size="large" maxLength={11} inputMode="numeric" autoComplete="tel" placeholder="11 位手机号码" />
          </Form.Item>
          <Form.Item name="email" label="电子邮箱（选填）" rules={[zodRule(emailSchema)]}>
            <Input size="large" maxLength={80} inputMode="email" autoComplete="email" />
          </Form.Item>
          <Form.Item name="question" label="密保问题" rules={[zodRule(questionSchema)]} extra="忘记密码时用于找回。">
            <AutoComplete size="large" options={QUESTION_SUGGESTIONS.map((value) => ({ value }))} placeholder="选择或输入一个问题" />
          </Form.Item>
          <Form.Item name="answer" label="提示答案" rules={[zodRule(answerSchema)]}>
            <Input size="large" maxLength={50} autoComplete="off" />
          </Form.Item>
          <Form.Item name="captcha" label="验证码" rules={[{ required: true, message: '请输入验证码' }]}>
            <CaptchaInput ref={captcha} />
          </Form.Item>
          <Form.Item name="agree" valuePropName="checked" rules={[mustCheck('请阅读并同意注册协议')]}>
            <Checkbox>
              我已阅读并同意
              <Button type="link" className="inline-link" onClick={() => setAgreementOpen(true)}>
                《注册协议》
              </Button>
            </Checkbox>
          </Form.Item>
          <Form.Item name="consent" valuePropName="checked" rules={[mustCheck('请阅读并单独同意处理身份证号码等敏感个人信息')]}>
            <Checkbox>我单独同意考试机构为报名、资格审查和考试组织之目的，处理我的身份证号码等敏感个人信息。</Checkbox>
          </Form.Item>
          {taken && (
            <Alert
              type="warning"
              showIcon
              style={{ marginBottom: 16 }}
              title="该身份证号码已注册"
              description={
                <>
                  请直接登录；忘记密码可通过密保找回。如果您从未注册过，
                  <Button type="link" className="inline-link" onClick={() => setAppealing(true)}>
                    身份证号被他人注册？提交申诉
                  </Button>
                </>
              }
            />
          )}
          <Button type="primary" htmlType="submit" size="large" block loading={submitting}>
            注册并登录
          </Button>
        </Form>
        <p className="account-page__switch">
          已有账号？<Link to="/login">去登录</Link>
        </p>
      </MobileContainerCard>
      <AppealDrawer
        open={appealing}
        onClose={() => setAppealing(false)}
        initial={{ idno: form.getFieldValue('idno') as string | undefined, name: form.getFieldValue('name') as string | undefined }}
      />
      <AgreementModal open={agreementOpen} onClose={() => setAgreementOpen(false)} onAgree={() => form.setFieldValue('agree', true)} />
    </div>
  );
}
