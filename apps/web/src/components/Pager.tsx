import Pagination, { type PaginationProps } from 'antd/es/pagination';
import { AntdTheme } from '../../../app/antd-theme';

/** antd's simple pager under antd's theme, loaded only for a list with more than one page. */
export default function NoticePager(props: PaginationProps) {
  return (
    <AntdTheme>
      <Pagination {...props} />
    </AntdTheme>
  );
}
