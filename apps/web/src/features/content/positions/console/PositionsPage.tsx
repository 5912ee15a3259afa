import { DownloadOutlined, FileExcelOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { educationText, maxAgeText, politicalRequirementText, type Position, type PositionImportResult } from '@zhikaoyun/shared';
import { App, Button, Popconfirm, Space, Table, Upload } from 'antd';
import { useState } from 'react';
import { useLocation, useMatch } from 'react-router';
import { ButtonLink } from '../../../../components/console/ButtonLink';
import { useExamParam } from '../../../../components/console/console-exams';
import { ConsoleExamPicker } from '../../../../components/console/ConsoleExamPicker';
import { ConsoleNotFound } from '../../../../components/console/ConsoleResult';
import { OPENED_FROM_LIST, useCloseDrawer, useLastDefined } from '../../../../components/console/url-state';
import { useMayCall } from '../../../../lib/staff-session';
import { useExamPositions } from '../../../../lib/api/console-exams';
import { useDeletePosition, useExportPositions, useImportPositions, usePositionTemplate } from './api';
import { PositionFormModal } from './PositionFormModal';
import { ImportErrorsDialog } from '../../../../components/console/ImportErrorsDialog';

function requirementText(p: Position): string {
  const r = p.requirements;
  const parts = [
    r.minEducation ? educationText(r.minEducation) : '',
    r.majors.length ? `专业：${r.majors.join('、')}` : '',
    r.maxAge !== null ? maxAgeText(r.maxAge) : '',
    r.sex !== '不限' ? r.sex : '',
    r.politicalStatus !== '不限' ? politicalRequirementText(r.politicalStatus) : '',
    r.workYears ? `${r.workYears}年工作经历` : '',
  ].filter(Boolean);
  return parts.length ? parts.join('；') : '不限';
}

const LIST = '/admin/positions';

/**
 * 岗位管理: an exam's positions (`?examId=`); add, edit, delete while nobody chose them, Excel in
 * and out. The editor is `/admin/positions/new` or `/admin/positions/:positionId`, with the
 * list's search params (the exam), so a copied link opens the same editor over the same list.
 */
export default function PositionsPage() {
  const location = useLocation();
  const { examId, exams, chooseExam } = useExamParam();
  const positions = useExamPositions(examId);
  const canEdit = useMayCall('/api/admin/savePosition');
  const exporting = useExportPositions();
  const template = usePositionTemplate();
  const examName = exams.data?.find((e) => e.id === examId)?.name ?? String(examId);
  const remove = useDeletePosition();
  const importSheet = useImportPositions();
  const { message } = App.useApp();
  const [result, setResult] = useState<PositionImportResult | null>(null);
  const isNew = useMatch(`${LIST}/new`) !== null;
  const editMatch = useMatch(`${LIST}/:positionId`);
  const editId = isNew ? undefined : editMatch?.params.positionId;
  const editing = editId === undefined ? undefined : positions.data?.find((p) => p.id === Number(editId));
  const formTarget = useLastDefined<Position | 'new'>(isNew ? 'new' : editing);
  const close = useCloseDrawer({ pathname: LIST, search: location.search });
  // The editor's links name the exam even when the list shows the default one.
  const search = (() => {
    const params = new URLSearchParams(location.search);
    if (examId !== undefined) params.set('examId', String(examId));
    const text = params.toString();
    return text ? `?${text}` : '';
  })();

  const onImport = (file: File) => {
    if (examId === undefined) return;
    void importSheet
      .mutateAsync({ examId, file })
      .then((r) => {
        const done = `导入完成：新增 ${r.created} 个，更新 ${r.updated} 个岗位`;
        // A requirement column the sheet lacks was read as 不限 for every row: said, not hidden.
        if (r.errors.length === 0 && r.defaulted?.length)
          void message.warning(`${done}；表中没有「${r.defaulted.join('、')}」列，已按不限处理，如有要求请补上后重新导入`, 8);
        else if (r.errors.length === 0) void message.success(done);
        else setResult(r);
      })
      .catch(() => undefined);
  };

  // A link to a position the exam does not have.
  if (editId !== undefined && positions.data && !editing) return <ConsoleNotFound />;

  return (
    <div>
      <div className="console-toolbar">
        <h2 className="console-title">岗位管理</h2>
        <ConsoleExamPicker exams={exams.data} loading={exams.isLoading} value={examId} onChange={chooseExam} />
        {canEdit && (
          <>
            <ButtonLink
              type="primary"
              icon={<PlusOutlined aria-hidden />}
              disabled={examId === undefined}
              to={`${LIST}/new${search}`}
              state={OPENED_FROM_LIST}
            >
              新增岗位
            </ButtonLink>
            <Upload
              accept=".xlsx"
              showUploadList={false}
              disabled={examId === undefined}
              beforeUpload={(file) => {
                onImport(file);
                return false;
              }}
            >
              <Button icon={<UploadOutlined aria-hidden />} loading={importSheet.isPending} disabled={examId === undefined}>
                导入 Excel
              </Button>
            </Upload>
            <Button
              icon={<FileExcelOutlined aria-hidden />}
              disabled={examId === undefined}
              loading={template.isPending}
              onClick={() => examId !== undefined && template.mutate({ examId, examName })}
            >
              下载模板
            </Button>
          </>
        )}
        <Button
          icon={<DownloadOutlined aria-hidden />}
          disabled={examId === undefined}
          loading={exporting.isPending}
          onClick={() => examId !== undefined && exporting.mutate({ examId, examName })}
        >
          导出 Excel
        </Button>
      </div>
      {canEdit && (
        <p className="console-hint">
          可直接导入本机构的岗位表（表头上方可有标题行，学历写「本科及以上」、年龄写「35周岁以下」即可），或点击「下载模板」填写；导出的岗位表也可改后导入。岗位代码已存在的行会更新该岗位；表中有任何错误时不会导入，并逐行列出问题。
        </p>
      )}
      <Table
        rowKey="id"
        size="small"
        loading={positions.isLoading}
        dataSource={positions.data}
        pagination={{ pageSize: 50, hideOnSinglePage: true }}
        columns={[
          { title: '岗位代码', dataIndex: 'code', width: 100 },
          { title: '岗位名称', dataIndex: 'name' },
          { title: '招聘单位', dataIndex: 'unit' },
          { title: '人数', dataIndex: 'headcount', width: 60 },
          { title: '条件', render: (_: unknown, p: Position) => requirementText(p) },
          { title: '已报名', dataIndex: 'applicants', width: 80 },
          ...(canEdit
            ? [
                {
                  title: '操作',
                  width: 140,
                  render: (_: unknown, p: Position) => (
                    <Space size={0}>
                      <ButtonLink type="link" to={`${LIST}/${p.id}${search}`} state={OPENED_FROM_LIST}>
                        编辑
                      </ButtonLink>
                      <Popconfirm
                        title={`删除岗位 ${p.code}？`}
                        description="只有无人选择的岗位可以删除。"
                        okText="删除"
                        cancelText="取消"
                        onConfirm={() =>
                          remove
                            .mutateAsync(p.id)
                            .then(() => void message.success('岗位已删除'))
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
        locale={{ emptyText: examId === undefined ? '请先选择考试' : '该考试还没有岗位' }}
      />
      {examId !== undefined && (
        <PositionFormModal
          examId={examId}
          position={formTarget === 'new' ? null : (formTarget ?? null)}
          open={isNew || editing !== undefined}
          onClose={close}
        />
      )}
      <ImportErrorsDialog title="岗位表有错误，未导入" errors={result?.errors ?? null} onClose={() => setResult(null)} />
    </div>
  );
}
