import Pagination, { type PaginationProps } from 'antd/es/pagination';
import { AntdTheme } from '../lib/antd-theme';

/**
 * antd's pager under antd's theme, for the lists of the pages built without antd (the notices,
 * the public positions): loaded lazily, only for a list with more than one page.
 */
export default function Pager(props: PaginationProps) {
  return (
    <AntdTheme>
      <Pagination {...props} />
    </AntdTheme>
  );
}
