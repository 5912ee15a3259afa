import { Navigate } from 'react-router';
import { useStaffSession } from '../lib/staff-session';
import { CONSOLE_LOGIN, consoleHome } from './route-table';

/** `/admin`: the signed-in role's first page (the auditor's is 审计日志), or sign-in. */
export function ConsoleHomeRedirect() {
  const role = useStaffSession((s) => (s.token !== '' ? s.staff?.role : undefined));
  return <Navigate to={role ? consoleHome(role) : CONSOLE_LOGIN} replace />;
}
