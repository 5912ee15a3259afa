import {
  applicationDraftSchema,
  applicationFormSchema,
  FORM_FIELD_LABEL,
  type FormField,
  type ApplicationDraft,
  checkEligibility,
  ErrorCode,
  missingRequired,
  type Application,
  type ApplicationStatus,
  type ApplyStatus,
  type EligibilityProfile,
  type Exam,
} from '@zhikaoyun/shared';
import { isUniqueViolation } from '../../db/errors';
import { AppError } from '../../lib/app-error';
import { parseJsonColumn } from '../../lib/json';
import { nowIso } from '../../lib/time';
import type { CandidateRow } from '../accounts/repository';
import type { ExamsService } from '../exams/service';
import type { PositionsRepository } from '../positions/repository';
import { parseRequirements } from '../positions/service';
import type { ApplicationRow, ApplicationsRepository } from './repository';

export function parseForm(text: string): ApplicationDraft {
  return parseJsonColumn(applicationDraftSchema, text, {});
}

/** The saved draft, checked field by field against the form's rules; the first problem, named. */
function formProblem(form: ApplicationDraft): string | null {
  const cleaned = Object.fromEntries(Object.entries(form).filter(([, v]) => v !== '' && v !== undefined && v !== null));
  const result = applicationFormSchema.safeParse(cleaned);
  if (result.success) return null;
  const issue = result.error.issues[0]!;
  const label = FORM_FIELD_LABEL[issue.path[0] as FormField];
  return label && !issue.message.includes(label) ? `${label}：${issue.message}` : issue.message;
}

/** What eligibility is judged on: the form as saved and the ID-derived birthday and sex. */
export function eligibilityProfile(candidate: Pick<CandidateRow, 'birthday' | 'sex'>, formText: string): EligibilityProfile {
  const form = parseForm(formText);
  const workYears = Number(form.workYears ?? 0);
  return {
    education: form.education,
    major: form.major,
    politicalStatus: form.politicalStatus,
    workYears: Number.isFinite(workYears) ? workYears : 0,
    birthday: candidate.birthday,
    sex: candidate.sex,
  };
}

function toApplication(row: ApplicationRow): Application {
  return {
    id: row.id,
    examId: row.exam_id,
    positionId: row.position_id,
    status: row.status as ApplicationStatus,
    reason: row.reason,
    form: parseForm(row.form),
    submittedAt: row.submitted_at,
    updatedAt: row.updated_at,
  };
}

function requireRegistering(exam: Exam, what: string) {
  if (exam.phase === 'upcoming') throw new AppError(ErrorCode.Validation, `报名尚未开始，暂不能${what}`);
  if (exam.phase !== 'registering') throw new AppError(ErrorCode.Validation, `报名已截止，不能${what}`);
}

export interface ApplicationsDeps {
  repo: ApplicationsRepository;
  exams: ExamsService;
  positions: PositionsRepository;
  findCandidate(officeId: number, id: number): Promise<Pick<CandidateRow, 'birthday' | 'sex'> | undefined>;
}

export function createApplicationsService({ repo, exams, positions, findCandidate }: ApplicationsDeps) {
  async function position(officeId: number, examId: number, positionId: number) {
    const p = await positions.find(officeId, positionId);
    if (!p || p.exam_id !== examId) throw new AppError(ErrorCode.NotFound, '所选岗位不存在，请重新选择');
    return p;
  }

  /** The candidate's status in an exam already read (saves reading it twice after a change). */
  async function statusFor(
    exam: Exam,
    officeId: number,
    candidateId: number,
    known?: Pick<ApplicationRow, 'id' | 'status' | 'reason' | 'position_id'>,
  ): Promise<ApplyStatus> {
    const row = known ?? (await repo.findByCandidate(officeId, exam.id, candidateId));
    if (!row) return { status: null, reason: '', history: [], positionId: null, canWithdraw: false, canEdit: exam.phase === 'registering' };
    const history = (await repo.history(row.id)).map((h) => ({
      status: h.status as ApplicationStatus,
      reason: h.reason,
      actor: h.actor === 'staff' ? ('staff' as const) : ('candidate' as const),
      at: h.at,
    }));
    const open = exam.phase === 'registering';
    return {
      status: row.status as ApplicationStatus,
      reason: row.reason,
      history,
      positionId: row.position_id,
      canWithdraw: open && row.status === 'submitted',
      canEdit: open && (row.status === 'draft' || row.status === 'rejected'),
    };
  }

  return {
    async get(officeId: number, candidateId: number, examId: number): Promise<Application | null> {
      await exams.get(officeId, examId);
      const row = await repo.findByCandidate(officeId, examId, candidateId);
      return row ? toApplication(row) : null;
    },

    /** Saves the draft as the candidate types; only drafts and rejected applications change. */
    async save(
      officeId: number,
      candidateId: number,
      input: { examId: number; positionId?: number | null | undefined; form?: ApplicationDraft | undefined },
    ): Promise<Application> {
      const exam = await exams.get(officeId, input.examId);
      requireRegistering(exam, '修改报名信息');
      if (input.positionId) await position(officeId, input.examId, input.positionId);
      const at = nowIso();
      let row = await repo.findByCandidate(officeId, input.examId, candidateId);
      // Choosing a position sends no form: the saved one stays exactly as it is.
      const form = input.form === undefined ? (row?.form ?? '{}') : JSON.stringify(input.form);
      if (!row) {
        try {
          await repo.insertDraft({
            office_id: officeId,
            exam_id: input.examId,
            candidate_id: candidateId,
            position_id: input.positionId ?? null,
            form,
            at,
          });
        } catch (err) {
          // Two first saves at once (two tabs): the other made the row; save into it.
          if (!isUniqueViolation(err)) throw err;
        }
        row = await repo.findByCandidate(officeId, input.examId, candidateId);
        if (row && row.form === form) return toApplication(row);
      }
      if (!row) throw new AppError(ErrorCode.Internal);
      const positionId = input.positionId === undefined ? row.position_id : input.positionId;
      const saved = await repo.saveDraft(officeId, row.id, { form, position_id: positionId, at });
      if (!saved) {
        throw new AppError(
          ErrorCode.Validation,
          row.status === 'approved' ? '报名已审核通过，信息已锁定' : '报名信息已提交待审核，如需修改请先撤回',
        );
      }
      return toApplication(saved);
    },

    /** Submits for review; a repeated submit of a submitted application changes nothing. */
    async submit(officeId: number, candidateId: number, examId: number): Promise<ApplyStatus> {
      const exam = await exams.get(officeId, examId);
      const row = await repo.findByCandidate(officeId, examId, candidateId);
      if (!row) throw new AppError(ErrorCode.Validation, '请先填写报考信息');
      if (row.status === 'submitted' || row.status === 'approved') return statusFor(exam, officeId, candidateId);
      requireRegistering(exam, '提交报名');
      const form = parseForm(row.form);
      if (!form.pledge) throw new AppError(ErrorCode.Validation, '请先阅读报考须知并签署诚信承诺');
      const missing = missingRequired(form, exam.config.required);
      if (missing.length > 0) throw new AppError(ErrorCode.Validation, `请填写：${missing.join('、')}`);
      const problem = formProblem(form);
      if (problem) throw new AppError(ErrorCode.Validation, problem);
      if (row.position_id === null) throw new AppError(ErrorCode.Validation, '请先选择报考岗位');
      const p = await position(officeId, examId, row.position_id);
      const candidate = await findCandidate(officeId, candidateId);
      if (!candidate) throw new AppError(ErrorCode.Unauthorized);
      const { eligible, reasons } = checkEligibility(
        parseRequirements(p.requirements),
        eligibilityProfile(candidate, row.form),
        nowIso().slice(0, 10),
      );
      if (!eligible) throw new AppError(ErrorCode.Validation, `不符合该岗位的报考条件：${reasons.join('；')}`);
      const at = nowIso();
      const moved = await repo.transition(
        officeId,
        row.id,
        ['draft', 'rejected'],
        'submitted',
        { reason: '', actor: 'candidate', actorId: candidateId, at },
        { submitted_at: at },
      );
      // Moved: the row is known without reading it again; not moved: another request moved it first.
      return statusFor(exam, officeId, candidateId, moved ? { ...row, status: 'submitted', reason: '' } : undefined);
    },

    /** Takes a submitted, not yet reviewed application back to draft. */
    async withdraw(officeId: number, candidateId: number, examId: number): Promise<ApplyStatus> {
      const exam = await exams.get(officeId, examId);
      const row = await repo.findByCandidate(officeId, examId, candidateId);
      if (!row) throw new AppError(ErrorCode.Validation, '您还没有报名该考试');
      if (row.status === 'draft') return statusFor(exam, officeId, candidateId);
      if (row.status !== 'submitted') throw new AppError(ErrorCode.Validation, '报名已审核，不能撤回');
      requireRegistering(exam, '撤回报名');
      const moved = await repo.transition(officeId, row.id, ['submitted'], 'draft', {
        reason: '',
        actor: 'candidate',
        actorId: candidateId,
        at: nowIso(),
      });
      if (!moved) throw new AppError(ErrorCode.Validation, '报名已审核，不能撤回');
      return statusFor(exam, officeId, candidateId);
    },

    async status(officeId: number, candidateId: number, examId: number): Promise<ApplyStatus> {
      return statusFor(await exams.get(officeId, examId), officeId, candidateId);
    },

    /** A reviewer's decision (the console's review calls use this). */
    async review(
      officeId: number,
      applicationId: number,
      decision: 'approve' | 'reject',
      reason: string,
      staffId: number,
    ): Promise<boolean> {
      if (decision === 'reject' && !reason.trim()) throw new AppError(ErrorCode.Validation, '审核不通过时必须填写原因');
      const row = await repo.findById(officeId, applicationId);
      if (!row) throw new AppError(ErrorCode.NotFound, '该报名不存在');
      const at = nowIso();
      return repo.transition(
        officeId,
        applicationId,
        ['submitted'],
        decision === 'approve' ? 'approved' : 'rejected',
        { reason: reason.trim(), actor: 'staff', actorId: staffId, at },
        { reviewed_at: at },
      );
    },
  };
}
export type ApplicationsService = ReturnType<typeof createApplicationsService>;
