import {
  OPEN_REQUIREMENTS,
  checkEligibility,
  ErrorCode,
  EDUCATION_LEVELS,
  positionRequirementsSchema,
  type Education,
  type EligibilityProfile,
  type Position,
  type PositionRequirements,
} from '@zhikaoyun/shared';
import { AppError } from '../../lib/app-error';
import { parseJsonColumn } from '../../lib/json';
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
  };
}

export interface PositionQuery {
  keyword?: string | undefined;
  unit?: string | undefined;
  education?: Education | undefined;
  page: number;
  pageSize: number;
}

export function createPositionsService(repo: PositionsRepository) {
  return {
    /**
     * A page of an exam's positions. With a profile (a logged-in candidate), each says whether
     * they qualify and why not. The education filter keeps the positions open to that level.
     */
    async page(officeId: number, examId: number, q: PositionQuery, profile: EligibilityProfile | null, today: string) {
      const rows = await repo.list(officeId, examId, { keyword: q.keyword, unit: q.unit });
      let list: Position[] = rows.map(toPosition);
      if (q.education) {
        const level = EDUCATION_LEVELS.indexOf(q.education);
        list = list.filter((p) => p.requirements.minEducation === null || EDUCATION_LEVELS.indexOf(p.requirements.minEducation) <= level);
      }
      const total = list.length;
      const pageRows = list.slice((q.page - 1) * q.pageSize, q.page * q.pageSize);
      const withEligibility = profile ? pageRows.map((p) => ({ ...p, ...checkEligibility(p.requirements, profile, today) })) : pageRows;
      const units = (await repo.units(officeId, examId)).map((u) => u.unit);
      return { list: withEligibility, total, units };
    },

    async detail(officeId: number, positionId: number, profile: EligibilityProfile | null, today: string): Promise<Position> {
      const r = await repo.detail(officeId, positionId);
      if (!r) throw new AppError(ErrorCode.NotFound, '该岗位不存在');
      const p = toPosition(r);
      return profile ? { ...p, ...checkEligibility(p.requirements, profile, today) } : p;
    },
  };
}
