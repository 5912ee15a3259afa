import { Tag } from 'antd';
import { useSysStore } from '../lib/store';

/** The chosen exam's name as a tag; nothing when no exam is chosen. */
export function ExamNameTag({ name }: { name?: string }) {
  const examName = useSysStore((s) => s.examName);
  const text = name ?? examName;
  if (!text) return null;
  return (
    <Tag color="blue" className="exam-name-tag">
      {text}
    </Tag>
  );
}
