import type { AdminExam } from '@zhikaoyun/shared';
import { Select, Tag } from 'antd';

/** Chooses the exam a console page works on, drafts included. */
export function ConsoleExamPicker({
  exams,
  loading,
  value,
  onChange,
}: {
  exams: readonly AdminExam[] | undefined;
  loading: boolean;
  value: number | undefined;
  onChange: (id: number) => void;
}) {
  return (
    <Select
      aria-label="考试"
      style={{ minWidth: 360 }}
      value={value}
      loading={loading}
      onChange={onChange}
      placeholder="请先新建考试"
      options={exams?.map((e) => ({
        value: e.id,
        label: (
          <span>
            {e.name} {!e.published && <Tag>未发布</Tag>}
          </span>
        ),
      }))}
    />
  );
}
