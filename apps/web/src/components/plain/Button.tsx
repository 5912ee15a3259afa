import type { ButtonHTMLAttributes, ReactNode } from 'react';

/** Which of antd's Button looks (plain.css `zk-btn`): its type, size and states. */
export interface ButtonLook {
  primary?: boolean;
  large?: boolean;
  block?: boolean;
  /** antd's `ghost`: white text and border, for a dark background. */
  ghost?: boolean;
  /** antd's `type="link"`. */
  link?: boolean;
  /** Greyed and not clickable while it works. */
  loading?: boolean;
}

/**
 * The classes of antd's Button, for what must be another element than a button: a link that
 * works from the server's HTML alone, or a stand-in that keeps a button's place.
 */
export function buttonClass({ primary, large, block, ghost, link, loading }: ButtonLook = {}, className?: string): string {
  return [
    'zk-btn',
    primary && 'zk-btn--primary',
    large && 'zk-btn--lg',
    block && 'zk-btn--block',
    ghost && 'zk-btn--ghost',
    link && 'zk-btn--link',
    loading && 'zk-btn--loading',
    className,
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * antd's Button, plain: a `<button type="button">` unless told otherwise, its icon before its text
 * (which goes in a span, as antd's). A loading button's spinner is given as its icon by the page
 * that waits (`<LoadingOutlined spin />`): drawn here, every page with a button would load it.
 */
export function Button({
  primary,
  large,
  block,
  ghost,
  link,
  loading,
  icon,
  className,
  type = 'button',
  children,
  ...button
}: ButtonLook & { icon?: ReactNode } & ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <button type={type} className={buttonClass({ primary, large, block, ghost, link, loading }, className)} {...button}>
      {icon}
      {children}
    </button>
  );
}
