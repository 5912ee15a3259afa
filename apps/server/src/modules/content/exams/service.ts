import { examConfigSchema, examPhase, WAIVER_CATEGORIES, type Exam } from '@zhikaoyun/shared';
import { z } from 'zod';
import { parseJsonColumn } from '../../../lib/json';
import { nowIso } from '../../../lib/clock';
import type { ExamLookup } from './lookup';
import type { ExamRow, ExamsRepository } from './repository';

const waiverCategoriesSchema = z.array(z.enum(WAIVER_CATEGORIES));

export function toExam(row: ExamRow, now: string = nowIso()): Exam {
  const windows = {
    registrationStart: row.registration_start,
    registrationEnd: row.registration_end,
    reviewStart: row.review_start,
    reviewEnd: row.review_end,
    confirmationStart: row.confirmation_start,
    confirmationEnd: row.confirmation_end,
  };
  return {
    id: row.id,
    name: row.name,
    phase: examPhase(windows, now),
    ...windows,
    config: parseJsonColumn(examConfigSchema, row.config, { fields: [], required: [] }),
    fee: row.fee,
    openingRatio: row.opening_ratio,
    waiverCategories: parseJsonColumn(waiverCategoriesSchema, row.waiver_categories, []),
    switchStart: row.switch_start,
    switchEnd: row.switch_end,
  };
}

const PHASE_ORDER = { registering: 0, upcoming: 1, reviewing: 2, confirming: 3, closed: 4 } as const;

export function createExamsService(repo: ExamsRepository, exams: ExamLookup) {
  return {
    /** Published exams, the ones open for registration first. */
    async list(officeId: number): Promise<Exam[]> {
      const now = nowIso();
      const exams = (await repo.listPublished(officeId)).map((r) => toExam(r, now));
      return exams.sort((a, b) => PHASE_ORDER[a.phase] - PHASE_ORDER[b.phase]);
    },
    /** The exam a candidate most likely came for: open now, else next, else the latest; null if none. */
    async current(officeId: number): Promise<Exam | null> {
      return (await this.list(officeId))[0] ?? null;
    },
    async get(officeId: number, examId: number): Promise<Exam> {
      return toExam(await exams.requirePublished(officeId, examId));
    },
  };
}
export type ExamsService = ReturnType<typeof createExamsService>;
