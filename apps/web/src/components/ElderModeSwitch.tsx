import { useElderMode } from '../lib/elder-mode';

/** The 长辈模式 switch every page's header carries: larger text, looser lines, bigger tap targets. */
export function ElderModeSwitch() {
  const [on, toggle] = useElderMode();
  return (
    <button type="button" className="elder-switch" aria-pressed={on} onClick={toggle}>
      长辈模式
    </button>
  );
}

/** The first stop of the keyboard on every page: straight to the page's own content. */
export function SkipLink() {
  return (
    <a
      className="skip-link"
      href="#main"
      onClick={(e) => {
        // Focus, not a hash change: the router would take #main for a navigation.
        e.preventDefault();
        document.getElementById('main')?.focus();
      }}
    >
      跳到主要内容
    </a>
  );
}
