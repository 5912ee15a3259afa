import {
  answerSchema,
  emailSchema,
  ErrorCode,
  idnoSchema,
  mobileSchema,
  nameSchema,
  questionSchema,
  SECURITY_QUESTIONS,
  smsCodeSchema,
  type RegisterInput,
} from '@zhikaoyun/shared';
import { Alert, Button, Checkbox, Form, Input, Select } from 'antd';
import { lazy, Suspense, useCallback, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { CaptchaInput, type CaptchaHandle } from '../../../components/CaptchaInput';
import { MobileContainerCard } from '../../../components/MobileContainerCard';
import { useSiteName } from '../../../components/site-name';
import { zodRule } from '../../../lib/form-rules';
import { useHydrated } from '../../../lib/hydrated';
import { RequestError } from '../../../lib/http';
import { takeReturnTo } from '../../../lib/return-to';
import { SmsCodeField, usePhoneVerification } from '../../../components/SmsCodeField';
import { register } from '../api';
import { startSession } from '../session';
import { NewPasswordFields } from '../components/NewPasswordFields';

// The agreement dialog and the appeal drawer load when first opened: the form shows without them.
const AgreementModal = lazy(() => import('../components/AgreementModal').then((m) => ({ default: m.AgreementModal })));
const AppealDrawer = lazy(() => import('../components/AppealDrawer').then((m) => ({ default: m.AppealDrawer })));

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
  // The select marks its inner input autocomplete="new-password" (and offers no prop to change it):
  // a password manager then offers to save or generate a password in the security question.
  const notAPassword = useCallback((select: { nativeElement?: HTMLElement } | null) => {
    select?.nativeElement?.querySelector('input')?.setAttribute('autocomplete', 'off');
  }, []);
  // Once opened each stays mounted, so that closing it animates like any dialog.
  const [opened, setOpened] = useState({ agreement: false, appeal: false });
  const ready = useHydrated();
  // The office may ask for a code sent to the phone (its SMS setting): then the form has one more field.
  const phoneVerification = usePhoneVerification();
  // The code is asked with the phone number and the image captcha (used up by that: a new one shows).
  const smsRequest = async () => {
    try {
      const v = await form.validateFields(['mobile', 'captcha']);
      return { mobile: v.mobile, captcha: v.captcha, captchaId: captcha.current?.captchaId() ?? '' };
    } catch {
      return null;
    }
  };

  async function onFinish(values: FormValues) {
    setSubmitting(true);
    try {
      const { confirm: _confirm, ...rest } = values;
      const result = await register({ ...rest, agree: true, consent: true, captchaId: captcha.current?.captchaId() ?? '' });
      startSession(result);
      void navigate(takeReturnTo() ?? '/exam-list', { replace: true });
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
        {/* Shown from the HTML at once; marked not yet usable until the script runs (what is typed meanwhile is kept). */}
        <Form<FormValues>
          aria-disabled={!ready}
          name="register"
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={(v) => void onFinish(v)}
          scrollToFirstError
          validateTrigger="onBlur"
        >
          <Form.Item
            name="idno"
            label="身份证号码"
            rules={[zodRule(idnoSchema)]}
            normalize={(v: string) => v.toUpperCase().replace(/\s/g, '')}
          >
            {/* Room for the spaces a pasted number brings (WeChat, PDFs): they are dropped before its 18 digits are checked. */}
            <Input size="large" maxLength={24} autoComplete="off" placeholder="18 位居民身份证号码" />
          </Form.Item>
          <Form.Item name="name" label="姓名" rules={[zodRule(nameSchema)]}>
            <Input size="large" maxLength={30} autoComplete="name" placeholder="与身份证一致" />
          </Form.Item>
          <NewPasswordFields name="password" label="密码" extra="至少 8 位，可以是一句好记的话；不要使用常见密码。" />
          <Form.Item name="mobile" label="手机号码" rules={[zodRule(mobileSchema)]}>
            <Input size="large" maxLength={11} inputMode="numeric" autoComplete="tel" placeholder="11 位手机号码" />
          </Form.Item>
          {phoneVerification && (
            <Form.Item
              name="smsCode"
              label="短信验证码"
              rules={[zodRule(smsCodeSchema)]}
              extra="先填写手机号码和下方的图形验证码，再获取短信验证码。"
            >
              <SmsCodeField purpose="register" request={smsRequest} onCaptchaUsed={() => captcha.current?.refresh()} />
            </Form.Item>
          )}
          <Form.Item name="email" label="电子邮箱（选填）" rules={[zodRule(emailSchema)]}>
            <Input size="large" maxLength={80} inputMode="email" autoComplete="email" />
          </Form.Item>
          <Form.Item name="question" label="密保问题" rules={[zodRule(questionSchema)]} extra="忘记密码时用于找回。">
            <Select
              size="large"
              placeholder="请选择密保问题"
              options={SECURITY_QUESTIONS.map((value) => ({ value, label: value }))}
              ref={notAPassword}
            />
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
              <Button
                type="link"
                className="inline-link"
                onClick={() => {
                  setOpened((o) => ({ ...o, agreement: true }));
                  setAgreementOpen(true);
                }}
              >
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
                  <Button
                    type="link"
                    className="inline-link"
                    onClick={() => {
                      setOpened((o) => ({ ...o, appeal: true }));
                      setAppealing(true);
                    }}
                  >
                    身份证号被他人注册？提交申诉
                  </Button>
                </>
              }
            />
          )}
          <Button type="primary" htmlType={ready ? 'submit' : 'button'} size="large" block loading={submitting}>
            注册并登录
          </Button>
        </Form>
        <p className="account-page__switch">
          已有账号？<Link to="/login">去登录</Link>
        </p>
      </MobileContainerCard>
      <Suspense fallback={null}>
        {opened.appeal && (
          <AppealDrawer
            open={appealing}
            onClose={() => setAppealing(false)}
            initial={{ idno: form.getFieldValue('idno') as string | undefined, name: form.getFieldValue('name') as string | undefined }}
          />
        )}
        {opened.agreement && (
          <AgreementModal open={agreementOpen} onClose={() => setAgreementOpen(false)} onAgree={() => form.setFieldValue('agree', true)} />
        )}
      </Suspense>
    </div>
  );
}
