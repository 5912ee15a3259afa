import { useSysStore } from '../lib/store';

/** The exam's name as the page heading (candidates must see which exam they are in). */
export function ExamTitle({ name, subtitle }: { name?: string; subtitle?: string }) {
  const examName = useSysStore((s) => s.examName);
  const text = name ?? examName;
  if (!text) return null;
  return (
    <div className="exam-title">
      <h2 className="exam-title__name">{text}</h2>
      {subtitle && <p className="exam-title__sub">{subtitle}</p>}
    </div>
  );
}
