import { PlusOutlined } from '@ant-design/icons';
import type { AdminNotice } from '@zhikaoyun/shared';
import { App, Button, Popconfirm, Space, Table, Tag } from 'antd';
import { formatDateTime } from '../../../../components/format';
import { useLocation, useMatch } from 'react-router';
import { ButtonLink } from '../../../../components/console/ButtonLink';
import { ConsoleNotFound } from '../../../../components/console/ConsoleResult';
import { OPENED_FROM_LIST, pageParam, useCloseDrawer, useLastDefined, useUrlParams } from '../../../../components/console/url-state';
import { useMayCall } from '../../../../lib/staff-session';
import { NOTICE_PAGE_SIZE, useAdminNotice, useAdminNotices, useDeleteNotice, useSetNoticePublished } from './api';
import { NoticeEditorDrawer } from './NoticeEditorDrawer';

const LIST = '/admin/notices';

/**
 * 公告管理: notices and drafts; write, publish or withdraw, delete. The page is `?page=`; the
 * editor is `/admin/notices/new` or `/admin/notices/:noticeId`.
 */
export default function NoticesAdminPage() {
  const location = useLocation();
  const [params, update] = useUrlParams();
  const page = pageParam(params);
  const notices = useAdminNotices(page);
  const canEdit = useMayCall('/api/admin/saveNotice');
  const publish = useSetNoticePublished();
  const remove = useDeleteNotice();
  const { message } = App.useApp();
  const isNew = useMatch('/admin/notices/new') !== null;
  const editMatch = useMatch('/admin/notices/:noticeId');
  const editId = isNew || !editMatch?.params.noticeId ? undefined : Number(editMatch.params.noticeId);
  const editing = useAdminNotice(editId);
  const target = useLastDefined<AdminNotice | 'new'>(isNew ? 'new' : editId !== undefined ? editing.data : undefined);
  const close = useCloseDrawer({ pathname: LIST, search: location.search });

  const setPublished = (n: AdminNotice, published: boolean) =>
    publish
      .mutateAsync({ id: n.id, published })
      .then(() => void message.success(published ? '公告已发布' : '公告已撤回'))
      .catch(() => undefined);

  // A link to a notice this office does not have (the error itself was shown by the client).
  if (editing.isError) return <ConsoleNotFound />;

  return (
    <div>
      <div className="console-toolbar">
        <h2 className="console-title">公告管理</h2>
        {canEdit && (
          <ButtonLink type="primary" icon={<PlusOutlined aria-hidden />} to={`${LIST}/new${location.search}`} state={OPENED_FROM_LIST}>
            新建公告
          </ButtonLink>
        )}
      </div>
      <Table
        rowKey="id"
        loading={notices.isLoading}
        dataSource={notices.data?.list}
        pagination={{
          current: page,
          pageSize: NOTICE_PAGE_SIZE,
          total: notices.data?.total ?? 0,
          onChange: (p) => update({ page: p === 1 ? null : p }),
          hideOnSinglePage: true,
          showSizeChanger: false,
        }}
        columns={[
          {
            title: '标题',
            render: (_: unknown, n: AdminNotice) => (
              <Space size={4}>
                {n.pinned && <Tag color="red">置顶</Tag>}
                {n.title}
              </Space>
            ),
          },
          {
            title: '状态',
            width: 90,
            render: (_: unknown, n: AdminNotice) => (n.published ? <Tag color="blue">已发布</Tag> : <Tag>草稿</Tag>),
          },
          {
            title: '发布时间',
            width: 180,
            render: (_: unknown, n: AdminNotice) => (n.published ? formatDateTime(n.publishedAt) : '—'),
          },
          { title: '附件', width: 60, render: (_: unknown, n: AdminNotice) => n.attachments.length },
          ...(canEdit
            ? [
                {
                  title: '操作',
                  width: 200,
                  render: (_: unknown, n: AdminNotice) => (
                    <Space size={0}>
                      <ButtonLink type="link" to={`${LIST}/${n.id}${location.search}`} state={OPENED_FROM_LIST}>
                        编辑
                      </ButtonLink>
                      {n.published ? (
                        <Button type="link" onClick={() => void setPublished(n, false)}>
                          撤回
                        </Button>
                      ) : (
                        <Button type="link" onClick={() => void setPublished(n, true)}>
                          发布
                        </Button>
                      )}
                      <Popconfirm
                        title={`删除公告“${n.title}”？`}
                        okText="删除"
                        cancelText="取消"
                        onConfirm={() =>
                          remove
                            .mutateAsync(n.id)
                            .then(() => void message.success('公告已删除'))
                            .catch(() => undefined)
                        }
                      >
                        <Button type="link" danger>
                          删除
                        </Button>
                      </Popconfirm>
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
        locale={{ emptyText: '还没有公告' }}
      />
      <NoticeEditorDrawer
        notice={target === 'new' ? null : (target ?? null)}
        open={isNew || (editId !== undefined && editing.data !== undefined)}
        onClose={close}
      />
    </div>
  );
}
