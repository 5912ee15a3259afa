import { LoadingOutlined } from '@ant-design/icons';
import { lazy, Suspense, useCallback, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { CaptchaInput, useCaptcha, type CaptchaHandle } from '../../../../components/captcha-core';
import { Button } from '../../../../components/plain/Button';
import { FormField, inputClass, PasswordInput } from '../../../../components/plain/Field';
import { MobileContainerCard } from '../../../../components/MobileContainerCard';
import { useSiteName } from '../../../../components/site-name';
import { useHydrated } from '../../../../lib/hydrated';
import { takeReturnTo } from '../../../../lib/return-to';
import { login } from '../api';
import { startSession } from '../session';

// The recovery drawer (its steps, forms and the password rules, on antd with its theme and App)
// loads when first opened: it is not needed to show the login form, which is plain and needs
// none of antd's runtime, so the page loads light.
const RecoverPasswordDrawer = lazy(() =>
  Promise.all([import('../components/RecoverPasswordDrawer'), import('../../../../lib/providers')]).then(
    ([{ RecoverPasswordDrawer: Drawer }, { AntdScope }]) => ({
      default: function ScopedRecoverPasswordDrawer(props: { open: boolean; onClose: () => void }) {
        return (
          <AntdScope>
            <Drawer {...props} />
          </AntdScope>
        );
      },
    }),
  ),
);

interface FormValues {
  idno: string;
  password: string;
  captcha: string;
}
type Field = keyof FormValues;

/** Each field's rule: required, and not only spaces where antd's form said `whitespace`. */
const REQUIRED: Record<Field, { message: string; whitespace: boolean }> = {
  idno: { message: '请输入身份证号码', whitespace: true },
  password: { message: '请输入密码', whitespace: false },
  captcha: { message: '请输入验证码', whitespace: true },
};

function check(field: Field, value: string): string | undefined {
  const rule = REQUIRED[field];
  return (rule.whitespace ? value.trim() : value) === '' ? rule.message : undefined;
}

/** 登录: ID number, password and captcha. */
export default function LoginPage() {
  const navigate = useNavigate();
  const siteName = useSiteName();
  const [values, setValues] = useState<FormValues>({ idno: '', password: '', captcha: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [submitting, setSubmitting] = useState(false);
  const [recovering, setRecovering] = useState(false);
  // Once opened it stays mounted, so that closing it animates like any drawer.
  const [recoveryOpened, setRecoveryOpened] = useState(false);
  const ready = useHydrated();
  const captchaRef = useRef<CaptchaHandle>(null);
  // A new captcha empties its field without judging it (no red 请输入验证码 before anything is typed).
  const setCaptchaValue = useCallback((value: string) => setValues((v) => ({ ...v, captcha: value })), []);
  const captcha = useCaptcha(captchaRef, setCaptchaValue);

  /** A change is judged at once (the ID number and password) or on leaving the field (the captcha). */
  const change = (field: Field, value: string, judge: boolean) => {
    setValues((v) => ({ ...v, [field]: value }));
    if (judge) setErrors((e) => ({ ...e, [field]: check(field, value) }));
  };

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!ready || submitting) return;
    const found = {
      idno: check('idno', values.idno),
      password: check('password', values.password),
      captcha: check('captcha', values.captcha),
    };
    setErrors(found);
    if (found.idno || found.password || found.captcha) return;
    setSubmitting(true);
    try {
      startSession(await login({ ...values, captchaId: captchaRef.current?.captchaId() ?? '' }));
      void navigate(takeReturnTo() ?? '/exam-list', { replace: true });
    } catch {
      // A captcha is single use: a new one, its field emptied. The password stays.
      captchaRef.current?.refresh();
    } finally {
      setSubmitting(false);
    }
  }

  const invalid = (field: Field) =>
    errors[field] ? { 'aria-invalid': true as const, 'aria-describedby': `login_${field}_help` } : { 'aria-invalid': false as const };

  return (
    <div className="account-page">
      <div className="account-page__brand">
        <h2>{siteName}</h2>
        <p>考生登录</p>
      </div>
      <MobileContainerCard>
        {/* Shown from the HTML at once; marked not yet usable until the script runs (what is typed meanwhile is kept). */}
        <form id="login" className="zk-form" noValidate aria-disabled={!ready} onSubmit={(e) => void onSubmit(e)}>
          <FormField id="login_idno" label="身份证号码" errors={errors.idno ? [errors.idno] : undefined}>
            {/* Room for the spaces a pasted number brings (they are dropped): 18 after trimming. */}
            <input
              id="login_idno"
              className={inputClass(Boolean(errors.idno))}
              type="text"
              maxLength={24}
              autoComplete="username"
              placeholder="注册时使用的身份证号码"
              aria-required="true"
              {...invalid('idno')}
              value={values.idno}
              onChange={(e) => change('idno', e.target.value.toUpperCase().replace(/\s/g, ''), true)}
            />
          </FormField>
          <FormField id="login_password" label="密码" errors={errors.password ? [errors.password] : undefined}>
            <PasswordInput
              id="login_password"
              invalid={Boolean(errors.password)}
              maxLength={128}
              autoComplete="current-password"
              aria-required="true"
              {...invalid('password')}
              value={values.password}
              onChange={(e) => change('password', e.target.value, true)}
            />
          </FormField>
          <FormField id="login_captcha" label="验证码" errors={errors.captcha ? [errors.captcha] : undefined}>
            <CaptchaInput
              captcha={captcha}
              invalid={Boolean(errors.captcha)}
              id="login_captcha"
              {...invalid('captcha')}
              value={values.captcha}
              onChange={(e) => change('captcha', e.target.value, false)}
              onBlur={(e) => setErrors((errs) => ({ ...errs, captcha: check('captcha', e.target.value) }))}
            />
          </FormField>
          <Button
            type={ready ? 'submit' : 'button'}
            primary
            large
            block
            loading={submitting}
            icon={submitting && <LoadingOutlined spin aria-hidden />}
          >
            <span>登录</span>
          </Button>
        </form>
        <div className="account-page__links">
          <Link to="/register">注册账号</Link>
          <Button
            link
            className="inline-link"
            aria-disabled={!ready}
            onClick={() => {
              setRecoveryOpened(true);
              setRecovering(true);
            }}
          >
            <span>忘记密码？</span>
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
