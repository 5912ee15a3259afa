import type { ReactNode } from 'react';

export interface MobileContainerCardProps {
  children: ReactNode;
  title?: ReactNode;
  extra?: ReactNode;
  className?: string;
}

/** The phone-width card every candidate page is built from. */
export function MobileContainerCard({ children, title, extra, className }: MobileContainerCardProps) {
  return (
    <section className={['mobile-card', className ?? ''].filter(Boolean).join(' ')}>
      {(title || extra) && (
        <header className="mobile-card__head">
          {title && <h2 className="mobile-card__title">{title}</h2>}
          {extra && <div className="mobile-card__extra">{extra}</div>}
        </header>
      )}
      {children}
    </section>
  );
}
