import { DownloadOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import type { Position, PositionImportResult } from '@zhikaoyun/shared';
import { Alert, App, Button, Modal, Popconfirm, Space, Table, Upload } from 'antd';
import { useState } from 'react';
import { ConsoleExamPicker } from '../../../components/console/ConsoleExamPicker';
import { useStaffSession } from '../../../lib/staff-session';
import { exportPositions, useAdminPositions, useDeletePosition, useImportPositions } from './api';
import { PositionFormModal } from './PositionFormModal';

function requirementText(p: Position): string {
  const r = p.requirements;
  const parts = [
    r.minEducation ? `${r.minEducation}及以上` : '',
    r.majors.length ? `专业：${r.majors.join('、')}` : '',
    r.maxAge !== null ? `${r.maxAge}周岁以下` : '',
    r.sex !== '不限' ? r.sex : '',
    r.politicalStatus !== '不限' ? '中共党员' : '',
    r.workYears ? `${r.workYears}年工作经历` : '',
  ].filter(Boolean);
  return parts.length ? parts.join('；') : '不限';
}

/** 岗位管理: an exam's positions; add, edit, delete while nobody chose them, Excel in and out. */
export default function PositionsPage() {
  const [examId, setExamId] = useState<number>();
  const positions = useAdminPositions(examId);
  const canEdit = useStaffSession((s) => s.staff?.role === 'admin');
  const remove = useDeletePosition();
  const importSheet = useImportPositions();
  const { message } = App.useApp();
  const [editing, setEditing] = useState<Position | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [result, setResult] = useState<PositionImportResult | null>(null);

  const onImport = (file: File) => {
    if (examId === undefined) return;
    void importSheet
      .mutateAsync({ examId, file })
      .then((r) => {
        if (r.errors.length === 0) void message.success(`导入完成：新增 ${r.created} 个，更新 ${r.updated} 个岗位`);
        else setResult(r);
      })
      .catch(() => undefined);
  };

  return (
    <div>
      <div className="console-toolbar">
        <h2 className="console-title">岗位管理</h2>
        <ConsoleExamPicker value={examId} onChange={setExamId} />
        {canEdit && (
          <>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              disabled={examId === undefined}
              onClick={() => {
                setEditing(null);
                setFormOpen(true);
              }}
            >
              新增岗位
            </Button>
            <Upload
              accept=".xlsx"
              showUploadList={false}
              disabled={examId === undefined}
              beforeUpload={(file) => {
                onImport(file);
                return false;
              }}
            >
              <Button icon={<UploadOutlined />} loading={importSheet.isPending} disabled={examId === undefined}>
                导入 Excel
              </Button>
            </Upload>
          </>
        )}
        <Button
          icon={<DownloadOutlined />}
          disabled={examId === undefined}
          onClick={() => examId !== undefined && void exportPositions(examId).catch(() => undefined)}
        >
          导出 Excel
        </Button>
      </div>
      {canEdit && (
        <p className="console-hint">
          导入表的列与导出表相同（可先导出作为模板）；岗位代码已存在的行会更新该岗位。表中有任何错误时不会导入，并逐行列出问题。
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
                      <Button
                        type="link"
                        onClick={() => {
                          setEditing(p);
                          setFormOpen(true);
                        }}
                      >
                        编辑
                      </Button>
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
      {examId !== undefined && <PositionFormModal examId={examId} position={editing} open={formOpen} onClose={() => setFormOpen(false)} />}
      <Modal
        title="岗位表有错误，未导入"
        open={result !== null}
        onCancel={() => setResult(null)}
        footer={<Button onClick={() => setResult(null)}>知道了</Button>}
        width={640}
      >
        <Alert type="warning" showIcon title={`共 ${result?.errors.length ?? 0} 处问题，请修改后重新导入。`} />
        <Table
          size="small"
          rowKey={(e) => `${e.row}-${e.msg}`}
          dataSource={result?.errors}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          columns={[
            { title: '行号', dataIndex: 'row', width: 70 },
            { title: '问题', dataIndex: 'msg' },
          ]}
        />
      </Modal>
    </div>
  );
}
