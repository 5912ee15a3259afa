import {
  fromHundredths,
  fromThousandths,
  interviewNeed,
  interviewRatioRowSchema,
  ratioFor,
  type InterviewRatioRow,
  type ScorePositionSummary,
} from '@zhikaoyun/shared';
import { z } from 'zod';
import type { Db } from '../../../db/database';
import type { RankedRow } from './ranking-repository';
import { createScoresRepository, type ScoresRepository } from './repository';

/**
 * The interview-list rules over ranked rows (pure), and the ranking as a worker thread computes
 * it on a connection of its own (decision 014): the window functions over a hundred thousand
 * totals and the per-position summary never run on the event loop.
 */
export type RuleRow = NonNullable<Awaited<ReturnType<ScoresRepository['rule']>>>;

const ratioTableSchema = z.array(interviewRatioRowSchema);

export function ratioTable(rule: RuleRow | undefined): InterviewRatioRow[] | null {
  if (!rule?.interview_ratio_table) return null;
  const parsed = ratioTableSchema.safeParse(JSON.parse(rule.interview_ratio_table));
  return parsed.success ? parsed.data : null;
}

/**
 * In the list: qualified, not given up, and either within the places by rank among the qualified
 * (ties at the cut-off share a rank, so they are all within) or added in a place given up.
 */
export function listed(
  r: { qualified: number; qrank: number | null; gave_up_at: string | null; filled_at: string | null },
  need: number,
): boolean {
  return r.qualified === 1 && r.gave_up_at === null && ((r.qrank !== null && r.qrank <= need) || r.filled_at !== null);
}

/**
 * Places in a position's interview list under the exam's rule (1:3 when no rule is saved). A
 * position cancelled at close-out recruits no one, so it has none, whoever was scored in it.
 */
export function needOf(rule: RuleRow | undefined, position: { headcount: number; cancelled_at: string | null }): number {
  if (position.cancelled_at !== null) return 0;
  const { headcount } = position;
  return interviewNeed(headcount, ratioFor(headcount, fromThousandths(rule?.interview_ratio ?? 3000), ratioTable(rule)));
}

export const points = (h: number | null) => (h === null ? null : fromHundredths(h));

/** Rows grouped by their position, in the order given. */
export function byPositionOf<R extends { position_id: number }>(rows: readonly R[]): Map<number, R[]> {
  const byPosition = new Map<number, R[]>();
  for (const r of rows) {
    const list = byPosition.get(r.position_id);
    if (list) list.push(r);
    else byPosition.set(r.position_id, [r]);
  }
  return byPosition;
}

/** Per position: ranked, qualified, the list's size and cut-off, and whether it falls short. */
export function summarise(
  positions: { id: number; code: string; name: string; headcount: number; cancelled_at: string | null }[],
  rows: RankedRow[],
  rule: RuleRow | undefined,
): { summaries: ScorePositionSummary[]; inList: (r: RankedRow) => boolean } {
  const byPosition = byPositionOf(rows);
  const needs = new Map(positions.map((p) => [p.id, needOf(rule, p)]));
  const inList = (r: RankedRow) => listed(r, needs.get(r.position_id) ?? 0);
  const summaries = positions.map((p) => {
    const list = byPosition.get(p.id) ?? [];
    const need = needs.get(p.id) ?? 0;
    const entered = list.filter(inList);
    const qualified = list.filter((r) => r.qualified === 1).length;
    const gaveUp = list.filter((r) => r.gave_up_at !== null).length;
    return {
      positionId: p.id,
      code: p.code,
      name: p.name,
      headcount: p.headcount,
      cancelled: p.cancelled_at !== null,
      need,
      ranked: list.filter((r) => r.total !== null).length,
      qualified,
      inList: entered.length,
      cutOff: entered.length === 0 ? null : points(entered.reduce((m, r) => Math.min(m, r.total ?? 0), Infinity)),
      short: qualified < need,
      gaveUp,
      vacancies: gaveUp > 0 ? Math.max(0, need - entered.length) : 0,
    };
  });
  return { summaries, inList };
}

export interface RankingInput {
  officeId: number;
  examId: number;
  /** The position whose ranked rows are wanted with the summaries (none: summaries only). */
  positionId?: number | undefined;
}

export interface RankingOutput {
  subjects: { id: number; name: string }[];
  summaries: ScorePositionSummary[];
  /** The position's ranked rows, best first, each with whether it is in the interview list. */
  rows: (RankedRow & { inList: boolean })[];
}

/** A position's list as the console shows it: best first, the unranked last, then by ticket. */
export const byRank = (a: RankedRow, b: RankedRow) => (a.rank ?? Infinity) - (b.rank ?? Infinity) || a.ticket_no.localeCompare(b.ticket_no);

/** The ranking of an exam as the console shows it, read and computed where `db` lives (a worker's connection). */
export async function computeRanking(db: Db, { officeId, examId, positionId }: RankingInput): Promise<RankingOutput> {
  const repo = createScoresRepository(db);
  const [rule, positions, subjects, rows] = await Promise.all([
    repo.rule(officeId, examId),
    repo.positions(officeId, examId),
    repo.subjects(officeId, examId),
    repo.ranked(officeId, examId),
  ]);
  const { summaries, inList } = summarise(positions, rows, rule);
  const mine =
    positionId === undefined
      ? []
      : rows
          .filter((r) => r.position_id === positionId)
          .sort(byRank)
          .map((r) => ({ ...r, inList: inList(r) }));
  return { subjects: subjects.map((s) => ({ id: s.id, name: s.name })), summaries, rows: mine };
}
