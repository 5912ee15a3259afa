import type { ReactNode } from 'react';

export interface ContainerCardProps {
  children: ReactNode;
  /** White background (on by default). */
  background?: boolean;
  /** Full width with no padding, for a card inside another. */
  embedded?: boolean;
  className?: string;
}

/** The spec's container card: centred at about 80% width, or embedded full width. */
export function ContainerCard({ children, background = true, embedded = false, className }: ContainerCardProps) {
  const classes = ['container-card', background ? 'is-white' : '', embedded ? 'is-embedded' : '', className ?? ''];
  return <section className={classes.filter(Boolean).join(' ')}>{children}</section>;
}
