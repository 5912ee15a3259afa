import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { ConsoleLayout } from './ConsoleLayout';
import { ConsoleLogin } from './ConsoleLogin';
import { CONSOLE_HOME, CONSOLE_LOGIN, CONSOLE_ROUTES, type ConsoleSection } from './route-table';

type PageModule = () => Promise<{ default: ComponentType }>;

/** Each section's page is its own chunk; a section's detail routes render the same page. */
const PAGES: Record<ConsoleSection, PageModule> = {
  review: () => import('../features/review/console/ReviewPage'),
  statistics: () => import('../features/review/console/StatisticsPage'),
  payments: () => import('../features/payments/console/PaymentsPage'),
  waivers: () => import('../features/payments/console/WaiversPage'),
  closeout: () => import('../features/payments/console/CloseoutPage'),
  arrangement: () => import('../features/arrangement/console/ArrangementPage'),
  doorCheck: () => import('../features/arrangement/console/DoorCheckPage'),
  scores: () => import('../features/scores/console/ScoresPage'),
  stages: () => import('../features/stages/console/StagesPage'),
  exams: () => import('../features/exams/console/ExamsPage'),
  positions: () => import('../features/positions/console/PositionsPage'),
  notices: () => import('../features/notices/console/NoticesAdminPage'),
  messages: () => import('../features/notifications/console/MessagesAdminPage'),
  settings: () => import('../features/system/console/SettingsPage'),
  staff: () => import('../features/staff/console/StaffManagementPage'),
  appeals: () => import('../features/appeals/console/AppealsPage'),
  audit: () => import('../features/audit/console/AuditPage'),
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
        <Route path="/admin" element={<Navigate to={CONSOLE_HOME} replace />} />
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
