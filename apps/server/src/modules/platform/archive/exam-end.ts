import { DEFAULT_RETENTION_YEARS, officeSettingsSchema } from '@zhikaoyun/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema';
import { parseJsonColumn } from '../../../lib/json';

/** When an exam ended, and when retention's purge anonymises its candidates who were not hired. */
export interface ExamEnd {
  examId: number;
  officeId: number;
  name: string;
  /** The last date of the exam's life: its windows, papers, score review and published stages. */
  endedAt: string;
  /** When its last stage (拟录用) was published; null: not yet. */
  hirePublishedAt: string | null;
  /** endedAt plus the office's retentionYears. */
  anonymiseAt: string;
  anonymisedAt: string | null;
}

const latest = (values: readonly (string | null | undefined)[]): string =>
  values.filter((v): v is string => typeof v === 'string' && v !== '').reduce((a, b) => (b > a ? b : a), '');

/** `iso` plus `years` calendar years (29 February falls to 1 March). */
export function addYears(iso: string, years: number): string {
  const d = new Date(iso);
  d.setUTCFullYear(d.getUTCFullYear() + years);
  return d.toISOString();
}

/** The office's retentionYears (its settings JSON; the default when unset). */
export function retentionYearsOf(settings: string): number {
  return parseJsonColumn(officeSettingsSchema.pick({ retentionYears: true }), settings, { retentionYears: DEFAULT_RETENTION_YEARS })
    .retentionYears;
}

/**
 * Every exam's end (of one office, or one exam): the latest of its registration, review and
 * confirmation windows, the end of its last paper, its ticket printing, its score query and
 * review, and each later stage's publication. An exam is over once that date has passed, or once
 * its last stage (拟录用) is published.
 */
export async function examEnds(k: Kysely<DB>, filter: { officeId?: number; examId?: number } = {}): Promise<ExamEnd[]> {
  let q = k
    .selectFrom('exam as e')
    .innerJoin('office as o', 'o.id', 'e.office_id')
    .select([
      'e.id',
      'e.office_id',
      'e.name',
      'e.registration_end',
      'e.review_end',
      'e.confirmation_end',
      'e.print_end',
      'e.anonymised_at',
      'o.settings',
      (eb) =>
        eb
          .selectFrom('exam_subject as s')
          .select((x) => x.fn.max('s.end_at').as('m'))
          .whereRef('s.exam_id', '=', 'e.id')
          .as('last_paper'),
      (eb) => eb.selectFrom('score_rule as r').select('r.review_end').whereRef('r.exam_id', '=', 'e.id').as('score_review_end'),
      (eb) => eb.selectFrom('score_rule as r').select('r.published_at').whereRef('r.exam_id', '=', 'e.id').as('scores_published'),
      (eb) =>
        eb
          .selectFrom('stage_publication as p')
          .select((x) => x.fn.max('p.published_at').as('m'))
          .whereRef('p.exam_id', '=', 'e.id')
          .as('last_stage'),
      (eb) =>
        eb
          .selectFrom('stage_publication as p')
          .select('p.published_at')
          .whereRef('p.exam_id', '=', 'e.id')
          .where('p.stage', '=', 'hire')
          .as('hire_published'),
    ])
    .orderBy('e.id');
  if (filter.officeId !== undefined) q = q.where('e.office_id', '=', filter.officeId);
  if (filter.examId !== undefined) q = q.where('e.id', '=', filter.examId);
  const rows = await q.execute();
  return rows.map((r) => {
    const endedAt = latest([
      r.registration_end,
      r.review_end,
      r.confirmation_end,
      r.print_end,
      r.last_paper,
      r.score_review_end,
      r.scores_published,
      r.last_stage,
    ]);
    return {
      examId: r.id,
      officeId: r.office_id,
      name: r.name,
      endedAt,
      hirePublishedAt: r.hire_published ?? null,
      anonymiseAt: addYears(endedAt, retentionYearsOf(r.settings)),
      anonymisedAt: r.anonymised_at,
    };
  });
}

/** Whether the exam may be archived (and its data counted for retention) at `now`. */
export const examOver = (end: ExamEnd, now: string): boolean => end.hirePublishedAt !== null || end.endedAt <= now;
