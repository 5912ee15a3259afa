import { PlusOutlined } from '@ant-design/icons';
import type { AdminNotice } from '@zhikaoyun/shared';
import { App, Button, Popconfirm, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useStaffSession } from '../../../lib/staff-session';
import { useAdminNotices, useDeleteNotice, useSetNoticePublished } from './api';
import { NoticeEditorDrawer } from './NoticeEditorDrawer';

/** 公告管理: notices and drafts; write, publish or withdraw, delete. */
export default function NoticesAdminPage() {
  const [page, setPage] = useState(1);
  const notices = useAdminNotices(page);
  const canEdit = useStaffSession((s) => s.staff?.role === 'admin');
  const publish = useSetNoticePublished();
  const remove = useDeleteNotice();
  const { message } = App.useApp();
  const [editing, setEditing] = useState<AdminNotice | null>(null);
  const [open, setOpen] = useState(false);

  const edit = (n: AdminNotice | null) => {
    setEditing(n);
    setOpen(true);
  };
  const setPublished = (n: AdminNotice, published: boolean) =>
    publish
      .mutateAsync({ id: n.id, published })
      .then(() => void message.success(published ? '公告已发布' : '公告已撤回'))
      .catch(() => undefined);

  return (
    <div>
      <div className="console-toolbar">
        <h2 className="console-title">公告管理</h2>
        {canEdit && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => edit(null)}>
            新建公告
          </Button>
        )}
      </div>
      <Table
        rowKey="id"
        loading={notices.isLoading}
        dataSource={notices.data?.list}
        pagination={{ current: page, pageSize: 20, total: notices.data?.total ?? 0, onChange: setPage, hideOnSinglePage: true }}
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
            render: (_: unknown, n: AdminNotice) => (n.published ? new Date(n.publishedAt).toLocaleString('zh-CN') : '—'),
          },
          { title: '附件', width: 60, render: (_: unknown, n: AdminNotice) => n.attachments.length },
          ...(canEdit
            ? [
                {
                  title: '操作',
                  width: 200,
                  render: (_: unknown, n: AdminNotice) => (
                    <Space size={0}>
                      <Button type="link" onClick={() => edit(n)}>
                        编辑
                      </Button>
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
      <NoticeEditorDrawer notice={editing} open={open} onClose={() => setOpen(false)} />
    </div>
  );
}
