import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { ConsoleLayout } from './ConsoleLayout';
import { ConsoleLogin } from './ConsoleLogin';
import { CONSOLE_LOGIN, CONSOLE_ROUTES, type ConsoleSection } from './route-table';
import { ConsoleHomeRedirect } from './ConsoleHomeRedirect';

type PageModule = () => Promise<{ default: ComponentType }>;

/** Each section's page is its own chunk; a section's detail routes render the same page. */
const PAGES: Record<ConsoleSection, PageModule> = {
  review: () => import('../features/registration/review/console/ReviewPage'),
  statistics: () => import('../features/registration/review/console/StatisticsPage'),
  payments: () => import('../features/confirmation/payments/console/PaymentsPage'),
  waivers: () => import('../features/confirmation/payments/console/WaiversPage'),
  closeout: () => import('../features/confirmation/payments/console/CloseoutPage'),
  arrangement: () => import('../features/arrangement/arrangement/console/ArrangementPage'),
  doorCheck: () => import('../features/arrangement/arrangement/console/DoorCheckPage'),
  scores: () => import('../features/scores/scores/console/ScoresPage'),
  stages: () => import('../features/scores/stages/console/StagesPage'),
  exams: () => import('../features/content/exams/console/ExamsPage'),
  positions: () => import('../features/content/positions/console/PositionsPage'),
  notices: () => import('../features/content/notices/console/NoticesAdminPage'),
  messages: () => import('../features/messages/notifications/console/MessagesAdminPage'),
  settings: () => import('../features/platform/system/console/SettingsPage'),
  staff: () => import('../features/access/staff/console/StaffManagementPage'),
  appeals: () => import('../features/registration/appeals/console/AppealsPage'),
  security: () => import('../features/access/security/console/SecurityPage'),
  audit: () => import('../features/platform/audit/console/AuditPage'),
};

const PAGE_COMPONENTS = Object.fromEntries(Object.entries(PAGES).map(([section, load]) => [section, lazy(load)])) as Record<
  ConsoleSection,
  LazyExoticComponent<ComponentType>
>;

/**
 * The office console's routes, from the route table, in React Router's declarative mode like
 * the candidate site. A list route and its detail routes (`/admin/review` and
 * `/admin/review/:applicationId`) render the same page component, so opening or closing a
 * drawer keeps the list as it is and the drawer animates. ConsoleLayout decides, on every
 * navigation, between the page, 无权访问 and 页面不存在, and sets the title.
 */
export function ConsoleRouter() {
  return (
    <BrowserRouter>
      <Routes>
        <Route path={CONSOLE_LOGIN} element={<ConsoleLogin />} />
        <Route path="/admin" element={<ConsoleHomeRedirect />} />
        <Route element={<ConsoleLayout />}>
          {CONSOLE_ROUTES.map((route) => {
            const Page = PAGE_COMPONENTS[route.section];
            return <Route key={route.path} path={route.path} element={<Page />} />;
          })}
          {/* ConsoleLayout shows 页面不存在 for any path the table does not know. */}
          <Route path="*" element={null} />
        </Route>
      </Routes>
    </BrowserRouter>
  );
}
