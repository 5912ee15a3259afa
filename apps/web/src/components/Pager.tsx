import Pagination, { type PaginationProps } from 'antd/es/pagination';
import { cloneElement, isValidElement, type ReactElement } from 'react';
import { AntdTheme } from '../lib/antd-theme';

/**
 * antd's pager under antd's theme, for the lists of the pages built without antd (the notices,
 * the public positions): loaded lazily, only for a list with more than one page.
 */
export default function Pager(props: PaginationProps) {
  return (
    <AntdTheme>
      <Pagination
        {...props}
        // antd's arrow buttons are named by their icons ("left", "right"): a screen reader needs words.
        itemRender={(_page, type, element) =>
          (type === 'prev' || type === 'next') && isValidElement(element)
            ? cloneElement(element as ReactElement<{ 'aria-label'?: string }>, { 'aria-label': type === 'prev' ? '上一页' : '下一页' })
            : element
        }
      />
    </AntdTheme>
  );
}
