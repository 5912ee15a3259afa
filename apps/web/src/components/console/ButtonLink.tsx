import { Button, type ButtonProps } from 'antd';
import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router';

/**
 * A console link that looks like a button: a real `<a href>` (open in a new tab, copy the
 * address) that navigates inside the console on a plain click. `state` goes with the history
 * entry (see OPENED_FROM_LIST).
 */
export function ButtonLink({ to, state, ...button }: Omit<ButtonProps, 'href' | 'onClick'> & { to: string; state?: unknown }) {
  const navigate = useNavigate();
  const onClick = (e: MouseEvent<HTMLElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    void navigate(to, { state });
  };
  return <Button {...button} href={to} onClick={onClick} />;
}
