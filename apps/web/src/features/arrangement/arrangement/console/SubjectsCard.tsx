import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Table } from 'antd';
import { useState } from 'react';
import { formatDateTime } from '../../../../components/format';
import { useExamSubjects, type ExamSubject } from '../../../../lib/api/console-exams';
import { SubjectModal } from './ArrangementEditors';

/** 考试科目: the exam's subjects and their times, added and edited until tickets are published. */
export function SubjectsCard({ examId, published }: { examId: number | undefined; published: boolean }) {
  const subjects = useExamSubjects(examId);
  const [subjectEditor, setSubjectEditor] = useState<ExamSubject | 'new' | null>(null);
  return (
    <>
      <Card
        size="small"
        title="考试科目"
        style={{ marginBottom: 16 }}
        extra={
          <Button icon={<PlusOutlined aria-hidden />} disabled={examId === undefined || published} onClick={() => setSubjectEditor('new')}>
            新增科目
          </Button>
        }
      >
        <Table
          rowKey="id"
          size="small"
          loading={subjects.isLoading}
          dataSource={subjects.data}
          pagination={false}
          columns={[
            { title: '科目', dataIndex: 'name' },
            { title: '开考时间', dataIndex: 'startAt', render: (v: string) => formatDateTime(v) },
            { title: '结束时间', dataIndex: 'endAt', render: (v: string) => formatDateTime(v) },
            {
              title: '操作',
              width: 90,
              render: (_: unknown, s: ExamSubject) => (
                <Button type="link" disabled={published} onClick={() => setSubjectEditor(s)}>
                  编辑
                </Button>
              ),
            },
          ]}
          locale={{ emptyText: examId === undefined ? '请先选择考试' : '还没有科目：先添加科目及考试时间' }}
        />
      </Card>

      {examId !== undefined && (
        <SubjectModal
          examId={examId}
          subject={subjectEditor === 'new' ? null : subjectEditor}
          open={subjectEditor !== null}
          onClose={() => setSubjectEditor(null)}
        />
      )}
    </>
  );
}
