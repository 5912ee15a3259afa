import {
  answerSchema,
  emailSchema,
  idnoSchema,
  mobileSchema,
  nameSchema,
  passwordSchema,
  questionSchema,
  smsCodeSchema,
} from '@zhikaoyun/shared';
import { zodMessage } from '../../../lib/form-rules';

// The registration form's rules, loaded when the form is first used (they bring zod): each field
// is judged by its shared schema, as the server judges it, or by the form's own rule.

export interface RegisterValues {
  idno: string;
  name: string;
  password: string;
  confirm: string;
  mobile: string;
  smsCode: string;
  email: string;
  question: string;
  answer: string;
  captcha: string;
  agree: boolean;
  consent: boolean;
}
export type RegisterField = keyof RegisterValues;

const one = (message: string | undefined) => (message === undefined ? [] : [message]);

/** The messages for a field's value, in its rules' order (none: it passes). */
export function registerErrors(field: RegisterField, v: RegisterValues): string[] {
  switch (field) {
    case 'idno':
      return one(zodMessage(idnoSchema, v.idno));
    case 'name':
      return one(zodMessage(nameSchema, v.name));
    case 'password':
      return one(zodMessage(passwordSchema, v.password));
    case 'confirm':
      // Required, and the same as the password (both said when both fail).
      return [...(v.confirm === '' ? ['请再次输入密码'] : []), ...(v.confirm !== v.password ? ['两次输入的密码不一致'] : [])];
    case 'mobile':
      return one(zodMessage(mobileSchema, v.mobile));
    case 'smsCode':
      return one(zodMessage(smsCodeSchema, v.smsCode));
    case 'email':
      return one(zodMessage(emailSchema, v.email));
    case 'question':
      return one(zodMessage(questionSchema, v.question));
    case 'answer':
      return one(zodMessage(answerSchema, v.answer));
    case 'captcha':
      return v.captcha === '' ? ['请输入验证码'] : [];
    case 'agree':
      return v.agree ? [] : ['请阅读并同意注册协议'];
    case 'consent':
      return v.consent ? [] : ['请阅读并单独同意处理身份证号码等敏感个人信息'];
  }
}
