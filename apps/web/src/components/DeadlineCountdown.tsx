import { ClockCircleOutlined } from '@ant-design/icons';
import { countdownText, type Deadline } from '@zhikaoyun/shared';
import { useNow } from '../lib/use-now';
import { formatDateTime } from './format';

/**
 * Every countdown of the site, in one format: "报名截止：2026-12-07 17:00（剩余 2 天 03:15:20）",
 * the deadline on the office's clock and the time left, ticking each second.
 */
export function DeadlineCountdown({ deadline }: { deadline: Deadline }) {
  const now = useNow(1000);
  const left = countdownText(deadline, now);
  const urgent = Date.parse(deadline.at) - Date.parse(now) < 3 * 86_400_000;
  return (
    <p className={`deadline${urgent ? ' is-urgent' : ''}`} role="note">
      <ClockCircleOutlined aria-hidden /> <span className="deadline__label">{deadline.label}：</span>
      <strong className="deadline__at">{formatDateTime(deadline.at)}</strong>
      <span className="deadline__left">（{left ?? '已截止'}）</span>
    </p>
  );
}
