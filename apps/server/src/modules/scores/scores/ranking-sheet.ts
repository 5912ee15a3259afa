import { fromHundredths, SCORE_MARK_TEXT } from '@zhikaoyun/shared';
import type { Writable } from 'node:stream';
import type { Db } from '../../../db/database';
import { writeSheet, type SheetColumn, type SheetValue } from '../../../lib/xlsx-stream';
import { byRank, listed, needOf, points } from './ranking';
import type { RankedRow } from './ranking-repository';
import { createScoresRepository, type ScoresRepository } from './repository';
import { BONUS_COLUMN, TICKET_COLUMN } from './columns';

/** What the export worker (src/export-worker.ts) is given for the ranking's workbook. */
export interface RankingExportJob {
  kind: 'ranking';
  officeId: number;
  examId: number;
}

/** Names read per query: a popular position's list stays within the dialects' bound parameters. */
const BATCH = 500;

type Row = Record<string, SheetValue | undefined>;

function columns(subjects: readonly string[]): SheetColumn[] {
  return [
    { header: '岗位', key: 'position', width: 24 },
    { header: TICKET_COLUMN, key: 'ticketNo', width: 14 },
    { header: '姓名', key: 'name', width: 10 },
    ...subjects.map((header, i) => ({ header, key: `subject${i}`, width: 12 })),
    { header: BONUS_COLUMN, key: 'bonus', width: 8 },
    { header: '总成绩', key: 'total', width: 10 },
    { header: '岗位排名', key: 'rank', width: 10 },
    { header: '是否合格', key: 'qualified', width: 10 },
    { header: '进入面试', key: 'inList', width: 10 },
  ];
}

/**
 * The ranking's rows, position by position (by code), best first and then by ticket, as the
 * console ranks them: each position's ranks are read on their own (the ranks are per position, on
 * the index by exam and position), so memory holds the largest position, not the exam.
 */
async function* rankingRows(
  repo: ScoresRepository,
  { officeId, examId }: RankingExportJob,
  subjects: { id: number }[],
): AsyncGenerator<Row[]> {
  const [rule, positions] = await Promise.all([repo.rule(officeId, examId), repo.positions(officeId, examId)]);
  const subjectIndex = new Map(subjects.map((s, i) => [s.id, i]));
  for (const p of positions) {
    const ranked = (await repo.ranked(officeId, examId, p.id)).sort(byRank);
    if (ranked.length === 0) continue;
    const need = needOf(rule, p);
    const marksOf = new Map<number, Row>();
    for (const m of await repo.marks(officeId, examId, p.id)) {
      const row = marksOf.get(m.application_id) ?? {};
      row[`subject${subjectIndex.get(m.subject_id) ?? 0}`] = m.mark === 'score' ? String(points(m.score)) : SCORE_MARK_TEXT[m.mark];
      marksOf.set(m.application_id, row);
    }
    for (let i = 0; i < ranked.length; i += BATCH) {
      const batch: RankedRow[] = ranked.slice(i, i + BATCH);
      const nameOf = new Map((await repo.names(batch.map((r) => r.application_id))).map((n) => [n.id, n.name]));
      yield batch.map((r) => ({
        position: `${p.code} ${p.name}`,
        ticketNo: r.ticket_no,
        name: nameOf.get(r.application_id) ?? '',
        ...marksOf.get(r.application_id),
        bonus: fromHundredths(r.bonus),
        total: points(r.total) ?? '',
        rank: r.rank ?? '',
        qualified: r.qualified === 1 ? '合格' : '',
        inList: listed(r, need) ? '是' : '',
      }));
    }
  }
}

/**
 * The whole ranking as .xlsx (full names: staff only), read on `db` (the export worker's own
 * connection) and written to `out` as it is read (lib/xlsx-stream.ts).
 */
export async function writeRankingExport(db: Db, job: RankingExportJob, out: Writable) {
  const repo = createScoresRepository(db);
  const subjects = await repo.subjects(job.officeId, job.examId);
  await writeSheet(out, '成绩排名', columns(subjects.map((s) => s.name)), rankingRows(repo, job, subjects));
}
