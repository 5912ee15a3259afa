import { useEffect, useState } from 'react';
import { useWaitingRoom } from '../lib/waiting-room';
import './waiting-room.css';

/**
 * 排队中: shown over the page while a call of this tab waits in the waiting room
 * (lib/waiting-room.ts). The page under it stays as it was, everything typed included; when the
 * call is let in the overlay goes and the page carries on by itself.
 */
export function WaitingRoomOverlay() {
  const { waiting, nextTryAt } = useWaitingRoom();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (waiting === 0) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [waiting]);
  if (waiting === 0) return null;
  const seconds = Math.max(0, Math.ceil((nextTryAt - now) / 1000));
  return (
    <div
      className="waiting-room"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="waiting-room-title"
      aria-describedby="waiting-room-text"
    >
      <div className="waiting-room-card">
        <div className="waiting-room-dots" aria-hidden="true">
          <span />
          <span />
          <span />
        </div>
        <h2 id="waiting-room-title">排队中</h2>
        <p id="waiting-room-text">现在报名的人较多，系统正在为您排队。您填写的内容都已保留，轮到您时会自动继续，请不要关闭或刷新页面。</p>
        <p className="waiting-room-next" aria-live="polite">
          {seconds > 0 ? `约 ${seconds} 秒后自动重试` : '正在为您重试…'}
        </p>
      </div>
    </div>
  );
}
