import { DIALOG_WIDTH, REJECTION_REASONS_MAX, rejectionReasonsSchema } from '@zhikaoyun/shared';
import { App, Form, Input } from 'antd';
import { FormModal } from '../../../../components/console/FormModal';
import { useRejectionReasons, useSaveRejectionReasons } from './api';

const linesOf = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');

/** 常用不通过原因: the office's preset reasons, one a line (admins). */
export function RejectionReasonsModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<{ text: string }>();
  const reasons = useRejectionReasons();
  const save = useSaveRejectionReasons();
  const { message } = App.useApp();

  const submit = ({ text }: { text: string }) => {
    const checked = rejectionReasonsSchema.safeParse({ reasons: linesOf(text) });
    if (!checked.success) {
      void message.error(checked.error.issues[0]?.message ?? '填写有误');
      return;
    }
    save.mutate(checked.data, {
      onSuccess: () => {
        void message.success('常用原因已保存');
        onClose();
      },
    });
  };

  return (
    <FormModal form={form} saving={save.isPending} onClose={onClose} open={open} title="常用不通过原因" width={DIALOG_WIDTH}>
      <Form
        form={form}
        name="rejection-reasons"
        layout="vertical"
        onFinish={submit}
        initialValues={{ text: reasons.data?.reasons.join('\n') ?? '' }}
        requiredMark={false}
      >
        <Form.Item
          name="text"
          label={`每行一条，最多 ${REJECTION_REASONS_MAX} 条`}
          extra="审核不通过时可点选其中一条填入原因，再按需修改。"
        >
          <Input.TextArea aria-label="常用不通过原因" rows={8} />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
