import {
  answerSchema,
  emailSchema,
  mobileSchema,
  questionSchema,
  updateUserInfoSchema,
  type UpdateUserInfoInput,
  type UserInfo,
} from '@zhikaoyun/shared';
import { App, AutoComplete, Button, Drawer, Form, Input } from 'antd';
import { zodRule } from '../../../lib/form-rules';
import { updateUserInfo, useUserInfoMutation } from '../api';
import { QUESTION_SUGGESTIONS } from './question-suggestions';

/** 修改联系方式与密保: mobile, e-mail, security question and hint answer. */
export function EditProfileDrawer({ open, onClose, userInfo }: { open: boolean; onClose: () => void; userInfo: UserInfo }) {
  const { message } = App.useApp();
  const mutation = useUserInfoMutation(updateUserInfo);
  return (
    <Drawer open={open} onClose={onClose} placement="bottom" size="large" title="修改联系方式与密保" destroyOnHidden>
      <Form<UpdateUserInfoInput>
        name="profile"
        layout="vertical"
        requiredMark={false}
        initialValues={{ mobile: userInfo.mobile, email: userInfo.email, question: userInfo.question, answer: userInfo.answer }}
        onFinish={(values) =>
          mutation.mutate(updateUserInfoSchema.parse(values), {
            onSuccess: () => {
              void message.success('已保存');
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
          <AutoComplete size="large" options={QUESTION_SUGGESTIONS.map((value) => ({ value }))} />
        </Form.Item>
        <Form.Item name="answer" label="提示答案" rules={[zodRule(answerSchema)]}>
          <Input size="large" maxLength={50} autoComplete="off" />
        </Form.Item>
        <Button type="primary" htmlType="submit" size="large" block loading={mutation.isPending}>
          保存
        </Button>
      </Form>
    </Drawer>
  );
}
