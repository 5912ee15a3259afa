import { Result } from 'antd';
import { consoleMenu } from '../../admin/route-table';
import { useStaffSession } from '../../lib/staff-session';
import { NotFoundResult } from '../NotFoundResult';
import { ButtonLink } from './ButtonLink';

/** The way back: the first page of the signed-in role's menu (报名审核; 审计日志 for the auditor). */
function HomeLink() {
  const role = useStaffSession((s) => s.staff?.role ?? 'reviewer');
  const home = consoleMenu(role)[0];
  return home ? (
    <ButtonLink type="primary" to={home.path}>
      返回{home.label}
    </ButtonLink>
  ) : null;
}

/** An unknown console address, or a record that does not exist: a way back instead of a blank page. */
export function ConsoleNotFound() {
  return <NotFoundResult action={<HomeLink />} />;
}

/** A page the signed-in role may not use (the permission table's), opened anyway. */
export function ConsoleForbidden() {
  return <Result status="403" title="无权访问" subTitle="您的角色不能使用该页面；如需使用，请联系本单位的管理员。" extra={<HomeLink />} />;
}
