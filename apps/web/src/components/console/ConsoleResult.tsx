import { Result } from 'antd';
import { NotFoundResult } from '../NotFoundResult';
import { ButtonLink } from './ButtonLink';

const HOME = '/admin/review';

/** An unknown console address, or a record that does not exist: a way back instead of a blank page. */
export function ConsoleNotFound() {
  return (
    <NotFoundResult
      action={
        <ButtonLink type="primary" to={HOME}>
          返回报名审核
        </ButtonLink>
      }
    />
  );
}

/** A page only admins may open, opened by a reviewer. */
export function ConsoleForbidden() {
  return (
    <Result
      status="403"
      title="无权访问"
      subTitle="该页面仅管理员可以使用；如需使用，请联系本单位的管理员。"
      extra={
        <ButtonLink type="primary" to={HOME}>
          返回报名审核
        </ButtonLink>
      }
    />
  );
}
