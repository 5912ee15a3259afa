/**
 * Tab and Shift+Tab go round inside an open dialog or drawer (GB/T 37668-2019 5.2.4, WAI-ARIA's
 * dialog pattern). antd's focus lock (@rc-component/util's lockFocus) pulls the focus back when
 * it lands on the page behind, but a dialog is the last thing in <body>: Tab on its last control
 * leaves the document for the browser's own bar, where no focus event tells the lock, and the
 * next Tab starts again at the page's first link. Here, the last control's Tab goes to the first
 * and the first's Shift+Tab to the last, before the browser moves anything. Installed once, for
 * the candidate site and the console.
 */
const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled], [type="hidden"]), select:not([disabled]), textarea:not([disabled]), audio[controls], [tabindex]:not([tabindex="-1"])';

/** What the keyboard can reach in `dialog`, in order: shown, not antd's zero-size focus sentinels. */
function reachable(dialog: Element): HTMLElement[] {
  return Array.from(dialog.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => {
    const rect = el.getBoundingClientRect();
    return rect.width > 0 && rect.height > 0 && getComputedStyle(el).visibility !== 'hidden';
  });
}

export function wrapTabInDialogs(doc: Document = document): void {
  // An antd Drawer, opening, focuses its own root (a tabindex="-1" box around the mask and the
  // panel, outside the role="dialog" and with no name): a screen reader says nothing of the
  // drawer, and the Tab order starts outside it. The focus goes on to the drawer's first control
  // (its 关闭 button), as it does in antd's Modal. Only when it comes from outside the drawer: a
  // tap on the drawer's text, which focuses the same root, leaves it where it is.
  doc.addEventListener('focusin', (e) => {
    const root = e.target;
    if (!(root instanceof HTMLElement) || !root.classList.contains('ant-drawer') || root.tabIndex !== -1) return;
    if (e.relatedTarget instanceof Node && root.contains(e.relatedTarget)) return;
    // The panel's content may mount a frame or two after the root takes the focus: tried again
    // for a short while, as long as the focus is still on the root.
    let tries = 30;
    const onward = () => {
      if (doc.activeElement !== root) return;
      const dialog = root.querySelector('[role="dialog"]');
      const first = dialog && reachable(dialog)[0];
      if (first) first.focus();
      else if (--tries > 0) requestAnimationFrame(onward);
    };
    onward();
  });

  doc.addEventListener(
    'keydown',
    (e) => {
      if (e.key !== 'Tab' || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
      const active = doc.activeElement;
      const dialog = active?.closest('[role="dialog"]');
      if (!dialog) return;
      const controls = reachable(dialog);
      const [first, last] = [controls[0], controls[controls.length - 1]];
      if (!first || !last) return;
      const next = e.shiftKey ? (active === first || !dialog.contains(active) ? last : null) : active === last ? first : null;
      if (!next) return;
      e.preventDefault();
      next.focus();
    },
    true,
  );
}
