import { Modal, Skeleton } from 'antd';
import { DIALOG_WIDTH } from '@zhikaoyun/shared';
import { useTreatyDesc } from '../queries';

/** The office's registration agreement (getTreatyDesc), read before agreeing. */
export function AgreementModal({ open, onClose, onAgree }: { open: boolean; onClose: () => void; onAgree: () => void }) {
  const treaty = useTreatyDesc();
  return (
    <Modal
      open={open}
      title={treaty.data?.title ?? '注册协议'}
      width={DIALOG_WIDTH}
      onCancel={onClose}
      onOk={() => {
        onAgree();
        onClose();
      }}
      okText="已阅读并同意"
      cancelText="关闭"
      centered
    >
      {treaty.isLoading ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : (
        // Staff-written rich text from our own API; the CSP forbids any script it might hold.
        // It scrolls when long: focusable, so that the keyboard can scroll it too (WCAG 2.1.1).
        <div
          className="rich-text agreement-text"
          tabIndex={0}
          role="region"
          aria-label="协议全文"
          dangerouslySetInnerHTML={{ __html: treaty.data?.content ?? '' }}
        />
      )}
    </Modal>
  );
}
