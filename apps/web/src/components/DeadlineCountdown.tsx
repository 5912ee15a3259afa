import { ClockCircleOutlined } from '@ant-design/icons';
import { countdownText, type Deadline } from '@zhikaoyun/shared';
import { useNow } from '../lib/use-now';
import { formatDateTime } from './format';

/** "距报名截止还有 3 天（2026-12-07 17:00）": the deadline on the office's clock, and the time left. */
export function DeadlineCountdown({ deadline }: { deadline: Deadline }) {
  const now = useNow();
  const left = countdownText(deadline, now);
  const urgent = Date.parse(deadline.at) - Date.parse(now) < 3 * 86_400_000;
  return (
    <p className={`deadline${urgent ? ' is-urgent' : ''}`} role="note">
      <ClockCircleOutlined aria-hidden /> {left ?? `${deadline.label}已过`}
      <span className="deadline__at">（{formatDateTime(deadline.at)}）</span>
    </p>
  );
}
