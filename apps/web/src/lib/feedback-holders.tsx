import useMessage from 'antd/es/message/useMessage';
import useModal from 'antd/es/modal/useModal';
import useNotification from 'antd/es/notification/useNotification';
import { useEffect } from 'react';
import { bindFeedback } from './feedback';
import { messageConfig, notificationConfig } from './theme';

/** antd App's three holders, with the spec's message and notification configuration. */
export default function FeedbackHolders() {
  const [message, messageHolder] = useMessage(messageConfig);
  const [notification, notificationHolder] = useNotification(notificationConfig);
  const [modal, modalHolder] = useModal();
  useEffect(() => {
    bindFeedback({ message, notification, modal });
    return () => bindFeedback(null);
  }, [message, notification, modal]);
  return (
    <>
      {modalHolder}
      {messageHolder}
      {notificationHolder}
    </>
  );
}
