import { PlusOutlined } from '@ant-design/icons';
import { EXAM_PHASE_LABEL, type AdminExam } from '@zhikaoyun/shared';
import { App, Button, Popconfirm, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useAdminExams } from '../../../components/console/ConsoleExamPicker';
import { useStaffSession } from '../../../lib/staff-session';
import { useSetExamPublished } from './api';
import { ExamDocumentsDrawer } from './ExamDocumentsDrawer';
import { ExamFormDrawer } from './ExamFormDrawer';

const when = (iso: string) => new Date(iso).toLocaleString('zh-CN', { dateStyle: 'short', timeStyle: 'short' });

/** 考试管理: every exam of the office, drafts too; create, edit, publish or withdraw, write its texts. */
export default function ExamsPage() {
  const exams = useAdminExams();
  const canEdit = useStaffSession((s) => s.staff?.role === 'admin');
  const publish = useSetExamPublished();
  const { message } = App.useApp();
  const [editing, setEditing] = useState<AdminExam | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [docsOf, setDocsOf] = useState<AdminExam | null>(null);

  const setPublished = (exam: AdminExam, published: boolean) =>
    void publish
      .mutateAsync({ examId: exam.id, published })
      .then(() => message.success(published ? '考试已发布，考生可以看到' : '考试已撤回，考生网站不再显示'))
      .catch(() => undefined);

  return (
    <div>
      <div className="console-toolbar">
        <h2 className="console-title">考试管理</h2>
        {canEdit && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => {
              setEditing(null);
              setFormOpen(true);
            }}
          >
            新建考试
          </Button>
        )}
      </div>
      <Table
        rowKey="id"
        loading={exams.isLoading}
        dataSource={exams.data}
        pagination={false}
        columns={[
          { title: '考试名称', dataIndex: 'name' },
          {
            title: '状态',
            render: (_: unknown, e: AdminExam) => (
              <Space size={4}>
                {e.published ? <Tag color="blue">已发布</Tag> : <Tag>草稿</Tag>}
                <Tag>{EXAM_PHASE_LABEL[e.phase]}</Tag>
              </Space>
            ),
          },
          { title: '报名时间', render: (_: unknown, e: AdminExam) => `${when(e.registrationStart)} 至 ${when(e.registrationEnd)}` },
          { title: '岗位', dataIndex: 'positions', width: 70 },
          { title: '已报名', dataIndex: 'applications', width: 80 },
          {
            title: '操作',
            render: (_: unknown, e: AdminExam) => (
              <Space size={0} wrap>
                {canEdit && (
                  <Button
                    type="link"
                    onClick={() => {
                      setEditing(e);
                      setFormOpen(true);
                    }}
                  >
                    编辑
                  </Button>
                )}
                <Button type="link" onClick={() => setDocsOf(e)}>
                  考试文件
                </Button>
                {canEdit &&
                  (e.published ? (
                    <Popconfirm title="撤回后考生网站不再显示该考试，已有报名保留。确定撤回？" onConfirm={() => setPublished(e, false)}>
                      <Button type="link" danger>
                        撤回
                      </Button>
                    </Popconfirm>
                  ) : (
                    <Button type="link" onClick={() => setPublished(e, true)}>
                      发布
                    </Button>
                  ))}
              </Space>
            ),
          },
        ]}
        locale={{ emptyText: '还没有考试，点击“新建考试”开始' }}
      />
      <ExamFormDrawer exam={editing} open={formOpen} onClose={() => setFormOpen(false)} />
      <ExamDocumentsDrawer exam={docsOf} onClose={() => setDocsOf(null)} canEdit={canEdit} />
    </div>
  );
}
