import { LeftOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useHydrated } from '../lib/hydrated';
import { ElderModeSwitch } from './ElderModeSwitch';

export interface MobileTopBarProps {
  title: string;
  /** Back arrow, on by default: one step back in history. */
  back?: boolean;
}

/** react-router keeps the history index in history.state; 0 means this tab opened here. */
function canGoBack(): boolean {
  const state = window.history.state as { idx?: number } | null;
  return typeof state?.idx === 'number' && state.idx > 0;
}

export function MobileTopBar({ title, back = true }: MobileTopBarProps) {
  const navigate = useNavigate();
  const ready = useHydrated();
  return (
    <header className="mobile-top-bar">
      {back && (
        <button
          type="button"
          className="mobile-top-bar__back"
          aria-label="返回"
          // Not usable until the script runs (a page rendered on the server).
          aria-disabled={!ready}
          // A page opened from a link has no history to go back to; home is the sensible step.
          onClick={() => void (canGoBack() ? navigate(-1) : navigate('/'))}
        >
          <LeftOutlined aria-hidden />
        </button>
      )}
      <h1 className="mobile-top-bar__title">{title}</h1>
      <ElderModeSwitch />
    </header>
  );
}
