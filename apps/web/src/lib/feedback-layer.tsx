import { AntdTheme } from './antd-theme';
import FeedbackHolders from './feedback-holders';

/** The holders under antd's theme: message, notification and dialogs look as the spec says wherever they are called from. */
export default function FeedbackLayer() {
  return (
    <AntdTheme>
      <FeedbackHolders />
    </AntdTheme>
  );
}
