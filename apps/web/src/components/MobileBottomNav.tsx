import { AuditOutlined, FileTextOutlined, HomeOutlined, NotificationOutlined, SolutionOutlined, UserOutlined } from '@ant-design/icons';
import { DEFAULT_MENU, type MenuItem } from '@zhikaoyun/shared';
import { lazy, Suspense, type ReactNode } from 'react';
import { NavLink } from 'react-router';
import { isLoggedIn, useSysStore } from '../lib/store';

// The unread count needs TanStack Query, which loads with the logged-in area, not with a guest's page.
const UnreadBadge = lazy(() => import('./UnreadBadge'));

const ICONS: Record<MenuItem['icon'], ReactNode> = {
  home: <HomeOutlined aria-hidden />,
  positions: <SolutionOutlined aria-hidden />,
  notices: <NotificationOutlined aria-hidden />,
  me: <UserOutlined aria-hidden />,
  exam: <FileTextOutlined aria-hidden />,
  status: <AuditOutlined aria-hidden />,
};

/** A guest would only be sent back by the guard; send them to the page meant for guests. */
const GUEST_PATH: Record<string, string> = {
  '/exam-list': '/',
  '/job-positions': '/job-positions-only-read',
  '/personal-center': '/login',
  '/current-exam': '/login',
};

/** `shell`: the page is a shell page's server HTML (app/shell-render.ts useShellRender). */
export function MobileBottomNav({ shell }: { shell: boolean }) {
  const menu = useSysStore((s) => s.sysMenu);
  const token = useSysStore((s) => s.token);
  // A shell page's HTML is only ever hydrated for someone logged in (main.tsx): its links are theirs.
  const loggedIn = shell || isLoggedIn({ token });
  const items = menu.length > 0 ? menu : DEFAULT_MENU;
  // Unread messages show on the personal center, where the inbox opens.
  const unread = (part: 'badge' | 'label') =>
    loggedIn && (
      <Suspense fallback={null}>
        <UnreadBadge part={part} />
      </Suspense>
    );
  return (
    <nav className="mobile-bottom-nav" aria-label="主导航">
      {items.map((item) => {
        const to = loggedIn ? item.path : (GUEST_PATH[item.path] ?? item.path);
        return (
          <NavLink
            key={item.key}
            to={to}
            end={to === '/'}
            className={({ isActive }) => `mobile-bottom-nav__item${isActive ? ' is-active' : ''}`}
          >
            <span className="mobile-bottom-nav__icon" aria-hidden>
              {ICONS[item.icon]}
              {item.path === '/personal-center' && unread('badge')}
            </span>
            {item.path === '/personal-center' && unread('label')}
            <span className="mobile-bottom-nav__label">{item.title}</span>
          </NavLink>
        );
      })}
    </nav>
  );
}
