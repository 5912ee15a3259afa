import {
  OPEN_REQUIREMENTS,
  checkEligibility,
  EDUCATION_LEVELS,
  positionMatches,
  positionRequirementsSchema,
  type Education,
  type EligibilityProfile,
  type Position,
  type PositionRequirements,
} from '@zhikaoyun/shared';
import { notFound } from '../../../lib/app-error';
import { parseJsonColumn } from '../../../lib/json';
import type { ExamsService } from '../exams/service';
import type { PositionsRepository } from './repository';

export function parseRequirements(text: string): PositionRequirements {
  return parseJsonColumn(positionRequirementsSchema, text, OPEN_REQUIREMENTS);
}

type PositionRow = Awaited<ReturnType<PositionsRepository['list']>>[number];

export function toPosition(r: PositionRow): Position {
  return {
    id: r.id,
    examId: r.exam_id,
    code: r.code,
    name: r.name,
    unit: r.unit,
    headcount: r.headcount,
    description: r.description,
    requirements: parseRequirements(r.requirements),
    applicants: Number(r.applicants ?? 0),
    ...(r.cancelled_at !== null ? { cancelled: true as const } : {}),
  };
}

export interface ExamPositions {
  positions: Position[];
  units: string[];
}

export interface PositionQuery {
  keyword?: string | undefined;
  unit?: string | undefined;
  education?: Education | undefined;
  page: number;
  pageSize: number;
}

/**
 * Positions as candidates see them: only those of published exams. An exam not (or no longer)
 * published answers exactly as its documents do (getDoc), so its position table cannot be read
 * before the office announces it.
 */
export function createPositionsService(repo: PositionsRepository, exams: Pick<ExamsService, 'get'>) {
  return {
    /**
     * Every position of a published exam (its applicant counts come apart, see `applicants`), and its units:
     * what every page, filter and search of the exam is cut from, so the caller can build it once
     * and cut many pages from it.
     */
    async exam(officeId: number, examId: number): Promise<ExamPositions> {
      await exams.get(officeId, examId);
      const positions = (await repo.list(officeId, examId, {})).map(toPosition);
      const units = [...new Set(positions.map((p) => p.unit))].sort();
      return { positions, units };
    },

    /** Applicants per position of the exam (counts kept as data): cheap, rebuilt as they move. */
    applicants(officeId: number, examId: number): Promise<Map<number, number>> {
      return repo.applicants(officeId, examId);
    },

    /**
     * A page of an exam's positions, cut from `exam()`, with the applicant counts of `applicants`.
     * The keyword is looked for in the name, code, unit and the majors a position accepts
     * (candidates search by what they studied); the education filter keeps the positions open to
     * that level. `eligibleOnly` (a logged-in candidate's 只看可报岗位) keeps the positions they
     * qualify for, judged over the whole list before paging so that every page is full.
     */
    page(
      all: ExamPositions,
      applicants: ReadonlyMap<number, number>,
      q: PositionQuery,
      eligibleOnly?: { profile: EligibilityProfile; today: string },
    ) {
      let list = all.positions;
      const keyword = q.keyword?.trim();
      if (keyword) list = list.filter((p) => positionMatches(p, keyword));
      if (eligibleOnly) list = list.filter((p) => checkEligibility(p.requirements, eligibleOnly.profile, eligibleOnly.today).eligible);
      if (q.unit) list = list.filter((p) => p.unit === q.unit);
      if (q.education) {
        const level = EDUCATION_LEVELS.indexOf(q.education);
        list = list.filter((p) => p.requirements.minEducation === null || EDUCATION_LEVELS.indexOf(p.requirements.minEducation) <= level);
      }
      const page = list.slice((q.page - 1) * q.pageSize, q.page * q.pageSize).map((p) => ({ ...p, applicants: applicants.get(p.id) ?? 0 }));
      return { list: page, total: list.length, units: all.units };
    },

    /** A position as everyone sees it; a candidate's eligibility is added by the route, on the office's today. */
    async detail(officeId: number, positionId: number): Promise<Position> {
      const r = await repo.detail(officeId, positionId);
      if (!r) throw notFound('position');
      if (r.exam_published !== 1) throw notFound('publishedExam');
      return toPosition(r);
    },
  };
}
