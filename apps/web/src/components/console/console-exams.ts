import type { AdminExam } from '@zhikaoyun/shared';
import { useCallback, useEffect } from 'react';
import { useAdminExams } from '../../lib/api/console-exams';
import { useStaffSession } from '../../lib/staff-session';
import { readStored, writeStored } from '../../lib/storage';
import { intParam, useUrlParams } from './url-state';

const ACTIVE = new Set(['registering', 'reviewing', 'confirming']);

/** The exam a page starts on: a published one in progress, else the newest. */
export function defaultExamId(exams: readonly AdminExam[] | undefined): number | undefined {
  return (exams?.find((e) => e.published && ACTIVE.has(e.phase)) ?? exams?.[0])?.id;
}

/** Where the exam last chosen in the console is kept: this browser, per office. */
const chosenKey = (office: string) => `consoleExam:${office}`;

/**
 * The exam a console page works on: `?examId=` when the office has that exam; else the exam last
 * chosen on any console page (kept in this browser per office, so 开考核定 or 验证准考证 open on the
 * exam the office is working on); else the page's own `fallback` (the door check's exam of
 * today); else the default. Choosing another is a new history entry that keeps only the search
 * params named in `keep` (the other filters belonged to the previous exam).
 */
export function useExamParam(
  keep: readonly string[] = [],
  { fallback }: { fallback?: (exams: readonly AdminExam[]) => number | undefined } = {},
) {
  const exams = useAdminExams();
  const office = useStaffSession((s) => s.staff?.officeName ?? '');
  const [params, update] = useUrlParams();
  const has = (id: number | undefined) => id !== undefined && (exams.data === undefined || exams.data.some((e) => e.id === id));
  const asked = intParam(params, 'examId');
  const chosen = readStored<number>(chosenKey(office), 'local') ?? undefined;
  const examId = has(asked)
    ? asked
    : exams.data && has(chosen)
      ? chosen
      : ((exams.data && fallback?.(exams.data)) ?? defaultExamId(exams.data));
  // An exam opened by a link counts as chosen too: the next page opens on it.
  const linked = has(asked) && exams.data !== undefined ? asked : undefined;
  useEffect(() => {
    if (linked !== undefined) writeStored(chosenKey(office), linked, 'local');
  }, [linked, office]);
  const keepKey = keep.join(',');
  const chooseExam = useCallback(
    (id: number) => {
      writeStored(chosenKey(office), id, 'local');
      const kept = Object.fromEntries(keepKey.split(',').flatMap((k) => (k && params.get(k) !== null ? [[k, params.get(k)]] : [])));
      update({ ...kept, examId: id }, { only: true });
    },
    [keepKey, office, params, update],
  );
  return { examId, exams, chooseExam };
}
