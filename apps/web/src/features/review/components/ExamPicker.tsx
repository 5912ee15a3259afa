import { Select } from 'antd';
import { useEffect } from 'react';
import { useConsoleExams } from '../api';

/** Chooses the exam a console page works on; the one open for registration first. */
export function ExamPicker({ value, onChange }: { value: number | undefined; onChange: (id: number) => void }) {
  const exams = useConsoleExams();
  const first = exams.data?.[0]?.id;
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
      options={exams.data?.map((e) => ({ value: e.id, label: e.name }))}
    />
  );
}
