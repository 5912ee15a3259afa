import {
  answerSchema,
  currentPasswordSchema,
  emailSchema,
  isSecurityQuestion,
  mobileSchema,
  questionSchema,
  SECURITY_QUESTIONS,
  updateUserInfoSchema,
  type UpdateUserInfoInput,
  type UserInfo,
} from '@zhikaoyun/shared';
import { App, Button, Drawer, Form, Input, Select } from 'antd';
import type { RuleRender } from 'antd/es/form';
import { zodRule } from '../../../../lib/form-rules';
import { updateUserInfo } from '../api';
import { useUserInfoMutation } from '../queries';

type Values = Required<UpdateUserInfoInput>;

/** The hint answer may stay as it is (left empty), except with a new question. */
const answerRule =
  (current: string): RuleRender =>
  (form) => ({
    validator: async (_rule, value: string | undefined) => {
      const answer = (value ?? '').trim();
      if (answer === '') {
        if (form.getFieldValue('question') !== current) throw new Error('更换密保问题时请同时填写新的提示答案');
        return;
      }
      const result = answerSchema.safeParse(answer);
      if (!result.success) throw new Error(result.error.issues[0]?.message ?? '提示答案有误');
    },
  });

/**
 * 修改联系方式与密保: mobile, e-mail, security question and hint answer. Each is a way into or a
 * way to reach the account, so the current password is asked for, and a saved change signs out
 * the account's other devices. The hint answer is never filled in (the browser does not have it).
 */
export function EditProfileDrawer({ open, onClose, userInfo }: { open: boolean; onClose: () => void; userInfo: UserInfo }) {
  const { message } = App.useApp();
  const mutation = useUserInfoMutation(updateUserInfo);
  return (
    <Drawer open={open} onClose={onClose} placement="bottom" size="large" title="修改联系方式与密保" destroyOnHidden>
      <Form<Values>
        name="profile"
        layout="vertical"
        requiredMark={false}
        initialValues={{
          mobile: userInfo.mobile,
          email: userInfo.email,
          // A question from before the fixed list (or set by staff) must be chosen again.
          question: isSecurityQuestion(userInfo.question) ? userInfo.question : undefined,
          answer: '',
          password: '',
        }}
        onFinish={(values) =>
          mutation.mutate(updateUserInfoSchema.parse(values), {
            onSuccess: () => {
              void message.success('已保存，其他设备上的登录已退出');
              onClose();
            },
          })
        }
      >
        <Form.Item name="mobile" label="手机号码" rules={[zodRule(mobileSchema)]}>
          <Input size="large" maxLength={11} inputMode="numeric" autoComplete="tel" />
        </Form.Item>
        <Form.Item name="email" label="电子邮箱（选填）" rules={[zodRule(emailSchema)]}>
          <Input size="large" maxLength={80} inputMode="email" autoComplete="email" />
        </Form.Item>
        <Form.Item name="question" label="密保问题" rules={[zodRule(questionSchema)]}>
          <Select size="large" placeholder="请选择密保问题" options={SECURITY_QUESTIONS.map((value) => ({ value, label: value }))} />
        </Form.Item>
        <Form.Item
          name="answer"
          label="提示答案"
          dependencies={['question']}
          rules={[answerRule(userInfo.question)]}
          extra="不修改请留空；更换密保问题时必须填写。"
        >
          <Input size="large" maxLength={50} autoComplete="off" placeholder="留空则保持原提示答案" />
        </Form.Item>
        <Form.Item
          name="password"
          label="当前登录密码"
          rules={[zodRule(currentPasswordSchema)]}
          extra="为保护账号安全，修改以上信息需要验证当前密码。"
        >
          <Input.Password size="large" maxLength={128} autoComplete="current-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" size="large" block loading={mutation.isPending}>
          保存
        </Button>
      </Form>
    </Drawer>
  );
}
