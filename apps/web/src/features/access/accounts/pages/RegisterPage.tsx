import { LoadingOutlined } from '@ant-design/icons';
import { ErrorCode } from '@zhikaoyun/shared';
import { lazy, startTransition, Suspense, useCallback, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { lazyScoped } from '../../../../lib/lazy-scoped';
import { CaptchaInput, useCaptcha, type CaptchaHandle } from '../../../../components/captcha-core';
import { MobileContainerCard } from '../../../../components/MobileContainerCard';
import { Button } from '../../../../components/plain/Button';
import { Checkbox } from '../../../../components/plain/Checkbox';
import { describedBy, FormField, inputClass as plainInputClass, PasswordInput } from '../../../../components/plain/Field';
import { SelectStandIn } from '../../../../components/plain/Select';
import { useSiteName } from '../../../../components/site-name';
import { useHydrated } from '../../../../lib/hydrated';
import { usePhoneVerification } from '../../../../lib/api/sms';
import { RequestError } from '../../../../lib/request-error';
import { takeReturnTo } from '../../../../lib/return-to';
import type { RegisterField, RegisterValues } from '../register-rules';
import { register } from '../api';
import { startSession } from '../session';

// The form is plain (no antd runtime, no TanStack Query), so the page loads light. What it needs
// only once used loads then: its rules (the shared zod schemas) and antd's Select for 密保问题 on
// the first tap, key or focus in the form; the SMS code field when the office asks for one; the
// agreement dialog and the appeal drawer when opened; the notice of a taken ID number when it is.
const loadRules = () => import('../register-rules');
const QuestionSelect = lazy(() => import('../components/QuestionSelect'));
const IdnoTakenAlert = lazy(() => import('../components/IdnoTakenAlert'));
const SmsCodeField = lazyScoped(() => import('../../../../components/SmsCodeField').then((m) => m.SmsCodeField));
const AgreementModal = lazyScoped(() => import('../components/AgreementModal').then((m) => m.AgreementModal));
const AppealDrawer = lazyScoped(() => import('../../../../components/AppealDrawer').then((m) => m.AppealDrawer));

const EMPTY: RegisterValues = {
  idno: '',
  name: '',
  password: '',
  confirm: '',
  mobile: '',
  smsCode: '',
  email: '',
  question: '',
  answer: '',
  captcha: '',
  agree: false,
  consent: false,
};

type Errors = Partial<Record<RegisterField, string[]>>;

/** 注册账号: one account per ID number; registration also logs the candidate in. */
export default function RegisterPage() {
  const navigate = useNavigate();
  const siteName = useSiteName();
  const [values, setValues] = useState<RegisterValues>(EMPTY);
  // The values as of the last change, for the handlers (a blur right after a change judges the new value).
  const latest = useRef(values);
  const [errors, setErrors] = useState<Errors>({});
  // Changed or judged once: a field whose errors follow another's value (确认密码 the password's).
  const dirty = useRef(new Set<RegisterField>());
  const [submitting, setSubmitting] = useState(false);
  // The ID number was taken: offer the appeal path beside the error.
  const [taken, setTaken] = useState(false);
  const [agreementOpen, setAgreementOpen] = useState(false);
  const [appealing, setAppealing] = useState(false);
  // Once opened each stays mounted, so that closing it animates like any dialog.
  const [opened, setOpened] = useState({ agreement: false, appeal: false });
  // antd's Select for 密保问题: loading once the form is used, opened by the tap that asked for it.
  const [select, setSelect] = useState({ load: false, open: false, focused: false });
  const ready = useHydrated();
  // The office may ask for a code sent to the phone (its SMS setting): then the form has one more field.
  const phoneVerification = usePhoneVerification();
  const captchaRef = useRef<CaptchaHandle>(null);
  // A new captcha empties its field without judging it.
  const setCaptchaValue = useCallback((captcha: string) => {
    latest.current = { ...latest.current, captcha };
    setValues(latest.current);
  }, []);
  const captcha = useCaptcha(captchaRef, setCaptchaValue);

  /** The first use of the form: its rules and the Select load (in a transition: the look-alike stays until it is there). */
  const prepare = () => {
    if (select.load) return;
    void loadRules();
    startTransition(() => setSelect((s) => ({ ...s, load: true })));
  };

  /** Judges `fields` against `v` (the rules load with the form's first use); the messages found. */
  async function judge(fields: RegisterField[], v: RegisterValues): Promise<Errors> {
    const { registerErrors } = await loadRules();
    const found: Errors = {};
    for (const field of fields) {
      dirty.current.add(field);
      found[field] = registerErrors(field, v);
    }
    setErrors((e) => ({ ...e, ...found }));
    return found;
  }

  /** A change: the value, normalised; 确认密码 judged again when the password changes under it (as antd's `dependencies`). */
  const change = <F extends RegisterField>(field: F, value: RegisterValues[F]) => {
    dirty.current.add(field);
    latest.current = { ...latest.current, [field]: value };
    setValues(latest.current);
    if (field === 'password' && dirty.current.has('confirm')) void judge(['confirm'], latest.current);
  };

  // A field is judged when left (the form's validateTrigger was onBlur), but for the captcha and
  // the SMS code, whose antd inputs never told the form they were left: those on submit.
  const leave = (field: RegisterField) => () => void judge([field], latest.current);

  const fields = (): RegisterField[] => [
    'idno',
    'name',
    'password',
    'confirm',
    'mobile',
    ...(phoneVerification ? (['smsCode'] as const) : []),
    'email',
    'question',
    'answer',
    'captcha',
    'agree',
    'consent',
  ];

  // The code is asked with the phone number and the image captcha (used up by that: a new one shows).
  const smsRequest = async () => {
    const found = await judge(['mobile', 'captcha'], latest.current);
    if (found.mobile?.length || found.captcha?.length) return null;
    return { mobile: latest.current.mobile, captcha: latest.current.captcha, captchaId: captchaRef.current?.captchaId() ?? '' };
  };

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!ready || submitting) return;
    const list = fields();
    const values = latest.current;
    const found = await judge(list, values);
    const first = list.find((f) => found[f]?.length);
    if (first) {
      document.getElementById(`register_${first}`)?.scrollIntoView({ block: 'nearest' });
      return;
    }
    setSubmitting(true);
    try {
      const { confirm: _confirm, smsCode, ...rest } = values;
      const result = await register({
        ...rest,
        ...(phoneVerification ? { smsCode } : {}),
        agree: true,
        consent: true,
        captchaId: captchaRef.current?.captchaId() ?? '',
      });
      startSession(result);
      void navigate(takeReturnTo() ?? '/exam-list', { replace: true });
    } catch (err) {
      // The client has shown why; a captcha is single use, so a new one is due.
      captchaRef.current?.refresh();
      if (err instanceof RequestError && Number(err.errorCode) === ErrorCode.IdnoRegistered) setTaken(true);
    } finally {
      setSubmitting(false);
    }
  }

  const id = (field: RegisterField) => `register_${field}`;
  const input = (field: Exclude<RegisterField, 'agree' | 'consent'>, extra?: ReactNode) => ({
    id: id(field),
    value: values[field],
    ...(field === 'captcha' || field === 'smsCode' ? {} : { onBlur: leave(field) }),
    ...describedBy(id(field), errors[field], extra),
  });
  const field = (name: RegisterField, label?: string, extra?: ReactNode) => ({ id: id(name), label, errors: errors[name], extra });
  const inputClass = (field: RegisterField) => plainInputClass(Boolean(errors[field]?.length));

  const passwordExtra = '至少 8 位，可以是一句好记的话；不要使用常见密码。';
  const smsExtra = '先填写手机号码和下方的图形验证码，再获取短信验证码。';
  const questionExtra = '忘记密码时用于找回。';
  const questionAria = describedBy(id('question'), errors.question, questionExtra);
  const lookalike = (
    <SelectStandIn
      id={id('question')}
      value={values.question}
      placeholder="请选择密保问题"
      invalid={questionAria['aria-invalid']}
      describedBy={questionAria['aria-describedby']}
      onActivate={() => setSelect((s) => ({ ...s, open: true }))}
      onFocusChange={(focused) => setSelect((s) => ({ ...s, focused }))}
    />
  );
  const openAgreement = () => {
    setOpened((o) => ({ ...o, agreement: true }));
    setAgreementOpen(true);
  };

  return (
    <div className="account-page">
      <MobileContainerCard>
        <p className="account-page__lead">欢迎使用{siteName}。请使用本人居民身份证号码注册，一个身份证号码只能注册一个账号。</p>
        {/* Shown from the HTML at once; marked not yet usable until the script runs (what is typed meanwhile is kept). */}
        <form
          id="register"
          className="zk-form"
          noValidate
          aria-disabled={!ready}
          onSubmit={(e) => void onSubmit(e)}
          onFocus={prepare}
          onPointerDown={prepare}
          onKeyDown={prepare}
        >
          <FormField {...field('idno', '身份证号码')}>
            {/* Room for the spaces a pasted number brings (WeChat, PDFs): they are dropped before its 18 digits are checked. */}
            <input
              {...input('idno')}
              className={inputClass('idno')}
              type="text"
              maxLength={24}
              autoComplete="off"
              placeholder="18 位居民身份证号码"
              onChange={(e) => change('idno', e.target.value.toUpperCase().replace(/\s/g, ''))}
            />
          </FormField>
          <FormField {...field('name', '姓名')}>
            <input
              {...input('name')}
              className={inputClass('name')}
              type="text"
              maxLength={30}
              autoComplete="name"
              placeholder="与身份证一致"
              onChange={(e) => change('name', e.target.value)}
            />
          </FormField>
          <FormField {...field('password', '密码', passwordExtra)}>
            <PasswordInput
              {...input('password', passwordExtra)}
              invalid={Boolean(errors.password?.length)}
              maxLength={128}
              autoComplete="new-password"
              onChange={(e) => change('password', e.target.value)}
            />
          </FormField>
          <FormField {...field('confirm', '确认密码')}>
            <PasswordInput
              {...input('confirm')}
              invalid={Boolean(errors.confirm?.length)}
              aria-required="true"
              maxLength={128}
              autoComplete="new-password"
              onChange={(e) => change('confirm', e.target.value)}
            />
          </FormField>
          <FormField {...field('mobile', '手机号码')}>
            <input
              {...input('mobile')}
              className={inputClass('mobile')}
              type="text"
              maxLength={11}
              inputMode="numeric"
              autoComplete="tel"
              placeholder="11 位手机号码"
              onChange={(e) => change('mobile', e.target.value)}
            />
          </FormField>
          {phoneVerification && (
            <FormField {...field('smsCode', '短信验证码', smsExtra)}>
              <Suspense fallback={<div className="sms-code-field" style={{ height: 40 }} />}>
                <SmsCodeField
                  id={id('smsCode')}
                  value={values.smsCode}
                  onChange={(code) => change('smsCode', code)}
                  purpose="register"
                  request={smsRequest}
                  onCaptchaUsed={() => captchaRef.current?.refresh()}
                />
              </Suspense>
            </FormField>
          )}
          <FormField {...field('email', '电子邮箱（选填）')}>
            <input
              {...input('email')}
              className={inputClass('email')}
              type="text"
              maxLength={80}
              inputMode="email"
              autoComplete="email"
              onChange={(e) => change('email', e.target.value)}
            />
          </FormField>
          <FormField {...field('question', '密保问题', questionExtra)}>
            {/* One boundary throughout: the select loads in a transition, the look-alike staying (focus and all) until it is there. */}
            <Suspense fallback={lookalike}>
              {select.load ? (
                <QuestionSelect
                  id={id('question')}
                  value={values.question}
                  onChange={(question) => change('question', question)}
                  onBlur={leave('question')}
                  invalid={questionAria['aria-invalid']}
                  describedBy={questionAria['aria-describedby']}
                  open={select.open}
                  focus={select.focused}
                />
              ) : (
                lookalike
              )}
            </Suspense>
          </FormField>
          <FormField {...field('answer', '提示答案')}>
            <input
              {...input('answer')}
              className={inputClass('answer')}
              type="text"
              maxLength={50}
              autoComplete="off"
              onChange={(e) => change('answer', e.target.value)}
            />
          </FormField>
          <FormField {...field('captcha', '验证码')}>
            <CaptchaInput
              captcha={captcha}
              invalid={Boolean(errors.captcha?.length)}
              {...input('captcha')}
              onChange={(e) => change('captcha', e.target.value)}
            />
          </FormField>
          <FormField {...field('agree')}>
            <Checkbox
              id={id('agree')}
              checked={values.agree}
              onChange={(e) => change('agree', e.target.checked)}
              onBlur={leave('agree')}
              {...describedBy(id('agree'), errors.agree)}
            >
              我已阅读并同意
              <Button link className="inline-link" onClick={openAgreement}>
                <span>《注册协议》</span>
              </Button>
            </Checkbox>
          </FormField>
          <FormField {...field('consent')}>
            <Checkbox
              id={id('consent')}
              checked={values.consent}
              onChange={(e) => change('consent', e.target.checked)}
              onBlur={leave('consent')}
              {...describedBy(id('consent'), errors.consent)}
            >
              我单独同意考试机构为报名、资格审查和考试组织之目的，处理我的身份证号码等敏感个人信息。
            </Checkbox>
          </FormField>
          {taken && (
            <Suspense fallback={null}>
              <IdnoTakenAlert
                onAppeal={() => {
                  setOpened((o) => ({ ...o, appeal: true }));
                  setAppealing(true);
                }}
              />
            </Suspense>
          )}
          <Button
            type={ready ? 'submit' : 'button'}
            primary
            large
            block
            loading={submitting}
            icon={submitting && <LoadingOutlined spin aria-hidden />}
          >
            <span>注册并登录</span>
          </Button>
        </form>
        <p className="account-page__switch">
          已有账号？<Link to="/login">去登录</Link>
        </p>
      </MobileContainerCard>
      <Suspense fallback={null}>
        {opened.appeal && (
          <AppealDrawer open={appealing} onClose={() => setAppealing(false)} initial={{ idno: values.idno, name: values.name }} />
        )}
        {opened.agreement && (
          <AgreementModal
            open={agreementOpen}
            onClose={() => setAgreementOpen(false)}
            onAgree={() => {
              change('agree', true);
              setErrors((e) => ({ ...e, agree: [] }));
            }}
          />
        )}
      </Suspense>
    </div>
  );
}
