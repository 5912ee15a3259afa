import { PlusOutlined } from '@ant-design/icons';
import { DOCUMENT_TYPE_LABEL, EXAM_PHASE_LABEL, type AdminExam } from '@zhikaoyun/shared';
import { App, Button, Popconfirm, Space, Table, Tag } from 'antd';
import { formatDateTime } from '../../../../components/format';
import { useMatch } from 'react-router';
import { ButtonLink } from '../../../../components/console/ButtonLink';
import { useAdminExams } from '../../../../lib/api/console-exams';
import { ConsoleNotFound } from '../../../../components/console/ConsoleResult';
import { OPENED_FROM_LIST, useCloseDrawer, useLastDefined } from '../../../../components/console/url-state';
import { useMayCall } from '../../../../lib/staff-session';
import { fetchExamDocuments, publishMeaning, useSetExamPublished } from './api';
import { ExamDocumentsDrawer } from './ExamDocumentsDrawer';
import { ExamFormDrawer } from './ExamFormDrawer';
import { ExamArchiveModal } from './ExamArchiveModal';
import { useState } from 'react';

const when = formatDateTime;
const LIST = '/admin/exams';

/**
 * 考试管理: every exam of the office, drafts too; create, edit, publish or withdraw, write its
 * texts. The editor is `/admin/exams/new` or `/admin/exams/:examId`, the texts
 * `/admin/exams/:examId/documents`.
 */
export default function ExamsPage() {
  const exams = useAdminExams();
  const canEdit = useMayCall('/api/admin/saveExam');
  const publish = useSetExamPublished();
  const { message, modal } = App.useApp();
  const isNew = useMatch('/admin/exams/new') !== null;
  const editMatch = useMatch('/admin/exams/:examId');
  const editId = isNew ? undefined : editMatch?.params.examId;
  const docsId = useMatch('/admin/exams/:examId/documents')?.params.examId;
  const find = (id: string | undefined) => (id === undefined ? undefined : exams.data?.find((e) => e.id === Number(id)));
  const formTarget = useLastDefined<AdminExam | 'new'>(isNew ? 'new' : find(editId));
  const docsOf = useLastDefined(find(docsId));
  const close = useCloseDrawer(LIST);
  const canArchive = useMayCall('/api/admin/archiveExam');
  const [archiveOf, setArchiveOf] = useState<AdminExam | null>(null);

  const setPublished = (exam: AdminExam, published: boolean) =>
    void publish
      .mutateAsync({ examId: exam.id, published })
      .then(() => message.success(published ? '考试已发布，考生可以看到' : '考试已撤回，考生网站不再显示'))
      .catch(() => undefined);

  // Publishing shows the exam to every candidate at once: always asked, saying what it means.
  // One candidates cannot apply to (no positions) or cannot read about (no notice, no pledge to
  // sign) is almost always a mistake: then say what is missing.
  const askPublish = async (exam: AdminExam) => {
    const docs = await fetchExamDocuments(exam.id).catch(() => null);
    const has = (type: 'notice' | 'pledge') => docs?.some((d) => d.type === type && d.content.trim() !== '') ?? true;
    const missing = [
      ...(exam.positions === 0 ? ['招聘岗位'] : []),
      ...(has('notice') ? [] : [DOCUMENT_TYPE_LABEL.notice]),
      ...(has('pledge') ? [] : [DOCUMENT_TYPE_LABEL.pledge]),
    ];
    if (missing.length === 0) {
      void modal.confirm({
        title: `发布「${exam.name}」？`,
        content: publishMeaning(exam),
        okText: '确认发布',
        cancelText: '返回',
        onOk: () => setPublished(exam, true),
      });
      return;
    }
    void modal.confirm({
      title: '考试信息还不完整',
      content: `该考试还没有${missing.join('、')}，发布后考生${exam.positions === 0 ? '无法选择岗位' : '看不到完整的报考信息'}。仍要发布吗？`,
      okText: '仍要发布',
      cancelText: '先去完善',
      onOk: () => setPublished(exam, true),
    });
  };

  // A link to an exam this office does not have.
  if (exams.data && ((!isNew && editId !== undefined && !find(editId)) || (docsId !== undefined && !find(docsId)))) {
    return <ConsoleNotFound />;
  }

  return (
    <div>
      <div className="console-toolbar">
        <h2 className="console-title">考试管理</h2>
        {canEdit && (
          <ButtonLink type="primary" icon={<PlusOutlined aria-hidden />} to="/admin/exams/new" state={OPENED_FROM_LIST}>
            新建考试
          </ButtonLink>
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
                {/* A draft is in no phase for candidates: 「草稿 · 报名中」 would say it is open. */}
                {e.published ? (
                  <>
                    <Tag color="blue">已发布</Tag>
                    <Tag>{EXAM_PHASE_LABEL[e.phase]}</Tag>
                  </>
                ) : (
                  <Tag>草稿</Tag>
                )}
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
                  <ButtonLink type="link" to={`${LIST}/${e.id}`} state={OPENED_FROM_LIST}>
                    编辑
                  </ButtonLink>
                )}
                <ButtonLink type="link" to={`${LIST}/${e.id}/documents`} state={OPENED_FROM_LIST}>
                  考试文件
                </ButtonLink>
                {canArchive && (
                  <Button type="link" onClick={() => setArchiveOf(e)}>
                    归档
                  </Button>
                )}
                {canEdit &&
                  (e.published ? (
                    <Popconfirm title="撤回后考生网站不再显示该考试，已有报名保留。确定撤回？" onConfirm={() => setPublished(e, false)}>
                      <Button type="link" danger>
                        撤回
                      </Button>
                    </Popconfirm>
                  ) : (
                    <Button type="link" onClick={() => void askPublish(e)}>
                      发布
                    </Button>
                  ))}
              </Space>
            ),
          },
        ]}
        locale={{ emptyText: '还没有考试，点击“新建考试”开始' }}
      />
      <ExamFormDrawer
        exam={formTarget === 'new' ? null : (formTarget ?? null)}
        open={isNew || (editId !== undefined && find(editId) !== undefined)}
        onClose={close}
      />
      <ExamArchiveModal exam={archiveOf} onClose={() => setArchiveOf(null)} />
      <ExamDocumentsDrawer exam={docsOf ?? null} open={docsId !== undefined && docsOf !== undefined} onClose={close} canEdit={canEdit} />
    </div>
  );
}
