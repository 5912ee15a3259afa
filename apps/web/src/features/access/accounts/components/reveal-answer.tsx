import { Suspense, useRef, useState, type ReactNode } from 'react';
import { lazyScoped } from '../../../../lib/lazy-scoped';

const RevealAnswerDialog = lazyScoped(() => import('./RevealAnswerDialog').then((m) => m.RevealAnswerDialog));

/**
 * 查看提示答案: the hint answer resets the password, so it is shown only after the password is
 * entered again. `reveal()` opens the dialog and resolves with the answer, or null when the
 * candidate cancels. The dialog (antd's Modal and Form) loads when first asked for.
 */
export function useRevealAnswer(): { reveal: () => Promise<string | null>; dialog: ReactNode } {
  const [open, setOpen] = useState(false);
  const [asked, setAsked] = useState(false);
  const settle = useRef<((answer: string | null) => void) | null>(null);

  function finish(answer: string | null) {
    settle.current?.(answer);
    settle.current = null;
    setOpen(false);
  }

  const reveal = () =>
    new Promise<string | null>((resolve) => {
      settle.current?.(null);
      settle.current = resolve;
      setAsked(true);
      setOpen(true);
    });

  const dialog = asked && (
    <Suspense fallback={null}>
      <RevealAnswerDialog open={open} onDone={finish} />
    </Suspense>
  );
  return { reveal, dialog };
}
