import { idnoSchema, mobileSchema, nameSchema, submitAppealSchema } from '@zhikaoyun/shared';
import { App, Button, Drawer, Form, Input } from 'antd';
import { useRef, useState } from 'react';
import { CaptchaInput, type CaptchaHandle } from './CaptchaInput';
import { zodRule } from '../lib/form-rules';
import { submitAppeal } from '../lib/api/accounts';

interface Values {
  name: string;
  idno: string;
  mobile: string;
  description: string;
  captcha: string;
}

/**
 * 身份证号被他人注册: the candidate files an appeal; the office's staff call back on the given
 * mobile, check the ID card and hand the account back (or explain why not).
 */
export function AppealDrawer({
  open,
  onClose,
  initial,
  title = '身份证号被他人注册申诉',
  lead = '如果您从未注册，但系统提示身份证号码已注册，可能有人冒用了您的身份证号码。提交申诉后，工作人员将致电核实，核实后为您重置账号。',
}: {
  open: boolean;
  onClose: () => void;
  initial: Partial<Values>;
  title?: string;
  /** What the appeal is for, said above the form (the registration's taken number by default). */
  lead?: string;
}) {
  const { modal } = App.useApp();
  const captcha = useRef<CaptchaHandle>(null);
  const [busy, setBusy] = useState(false);
  return (
    <Drawer open={open} onClose={onClose} placement="bottom" size="large" title={title} destroyOnHidden>
      <p className="account-page__lead">{lead}</p>
      <Form<Values>
        name="appeal"
        layout="vertical"
        requiredMark={false}
        initialValues={initial}
        validateTrigger="onBlur"
        onFinish={async (values) => {
          setBusy(true);
          try {
            await submitAppeal({ ...values, captchaId: captcha.current?.captchaId() ?? '' });
            onClose();
            modal.success({ title: '申诉已提交', content: '工作人员将在工作日内致电您填写的手机号码核实身份，请保持电话畅通。' });
          } catch {
            captcha.current?.refresh();
          } finally {
            setBusy(false);
          }
        }}
      >
        <Form.Item name="name" label="姓名" rules={[zodRule(nameSchema)]}>
          <Input size="large" maxLength={30} autoComplete="name" />
        </Form.Item>
        <Form.Item
          name="idno"
          label="身份证号码"
          rules={[zodRule(idnoSchema)]}
          normalize={(v: string) => v.toUpperCase().replace(/\s/g, '')}
        >
          <Input size="large" maxLength={18} autoComplete="off" />
        </Form.Item>
        <Form.Item name="mobile" label="联系手机" rules={[zodRule(mobileSchema)]}>
          <Input size="large" maxLength={11} inputMode="numeric" autoComplete="tel" />
        </Form.Item>
        <Form.Item name="description" label="情况说明" rules={[zodRule(submitAppealSchema.shape.description)]}>
          <Input.TextArea rows={3} maxLength={500} showCount placeholder="例如：我从未在本系统注册，注册时提示身份证号码已注册" />
        </Form.Item>
        <Form.Item name="captcha" label="验证码" rules={[{ required: true, message: '请输入验证码' }]}>
          <CaptchaInput ref={captcha} />
        </Form.Item>
        <Button type="primary" htmlType="submit" size="large" block loading={busy}>
          提交申诉
        </Button>
      </Form>
    </Drawer>
  );
}
