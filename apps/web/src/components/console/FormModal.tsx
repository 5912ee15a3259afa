import { Modal, type FormInstance, type ModalProps } from 'antd';

/**
 * A console editor in a dialog: 保存 submits its form (busy while saving), 取消 closes it, and
 * the form is unmounted when hidden so the next opening starts from its own values.
 */
export function FormModal({
  form,
  saving,
  onClose,
  ...modal
}: { form: FormInstance; saving: boolean; onClose: () => void } & Pick<ModalProps, 'title' | 'open' | 'width' | 'children'>) {
  return (
    <Modal
      {...modal}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText="保存"
      cancelText="取消"
      confirmLoading={saving}
      destroyOnHidden
    />
  );
}
