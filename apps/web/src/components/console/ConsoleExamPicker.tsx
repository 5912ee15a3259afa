import type { AdminExam } from '@zhikaoyun/shared';
import { useQuery } from '@tanstack/react-query';
import { Select, Tag } from 'antd';
import { useEffect } from 'react';
import { consoleGet } from '../../lib/console-http';

export function useAdminExams() {
  return useQuery({ queryKey: ['console', 'admin-exams'], queryFn: () => consoleGet<AdminExam[]>('/api/admin/getExamList') });
}

const ACTIVE = new Set(['registering', 'reviewing', 'confirming']);

/** Chooses the exam a console page works on, drafts included; starts on a published one in progress. */
export function ConsoleExamPicker({ value, onChange }: { value: number | undefined; onChange: (id: number) => void }) {
  const exams = useAdminExams();
  const first = (exams.data?.find((e) => e.published && ACTIVE.has(e.phase)) ?? exams.data?.[0])?.id;
  useEffect(() => {
    if (value === undefined && first !== undefined) onChange(first);
  }, [value, first, onChange]);
  return (
    <Select
      aria-label="考试"
      style={{ minWidth: 360 }}
      value={value}
      loading={exams.isLoading}
      onChange={onChange}
      placeholder="请先新建考试"
      options={exams.data?.map((e) => ({
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
