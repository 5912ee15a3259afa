import {
  applicationDraftSchema,
  applicationFormSchema,
  availableEvents,
  canEdit,
  canFire,
  transitionOf,
  checkEligibility,
  DEFAULT_TIME_ZONE,
  DRAFT_CONFLICT_TEXT,
  ErrorCode,
  eventFrom,
  FORM_FIELD_LABEL,
  formAsShown,
  graduationDateProblem,
  missingRequired,
  PHOTO_REQUIRED_TEXT,
  SUBMIT_CONFLICT_TEXT,
  type Application,
  type ApplicationDraft,
  type ApplicationEvent,
  type ApplyStatus,
  type EligibilityProfile,
  type Exam,
  type FormField,
  type LastProfile,
  type MyApplication,
  photoLockOf,
  profileOf,
} from '@zhikaoyun/shared';
import { isUniqueViolation } from '../../../db/errors';
import { AppError, notFound } from '../../../lib/app-error';
import { parseJsonColumn } from '../../../lib/json';
import { clock, nowIso } from '../../../lib/clock';
import type { CandidateRow } from '../../access/accounts/repository';
import type { ExamsService } from '../../content/exams/service';
import type { PositionsRepository } from '../../content/positions/repository';
import { parseRequirements } from '../../content/positions/service';
import type { FireInput, Lifecycle } from './lifecycle';
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
    status: row.status,
    reason: row.reason,
    form: parseForm(row.form),
    version: row.version,
    submittedAt: row.submitted_at,
    updatedAt: row.updated_at,
  };
}

export interface ApplicationsDeps {
  repo: ApplicationsRepository;
  lifecycle: Lifecycle;
  exams: ExamsService;
  positions: PositionsRepository;
  findCandidate: (officeId: number, id: number) => Promise<Pick<CandidateRow, 'birthday' | 'sex' | 'photo_id' | 'mobile'> | undefined>;
  /** Identity and photo rules a submit must meet (issue 33): throws the refusal with its way out. */
  submitGate?: (officeId: number, candidateId: number, exam: Exam, photoId: number) => Promise<void>;
}

/** The candidate's side of the lifecycle: the form, submit and withdraw, and what they may do next. */
export function createApplicationsService({ repo, lifecycle, exams, positions, findCandidate, submitGate }: ApplicationsDeps) {
  /** A step the candidate takes on their application of an exam (withdraw, one-click confirm). */
  async function candidateStep(officeId: number, candidateId: number, examId: number, event: 'withdraw' | 'confirm'): Promise<ApplyStatus> {
    const exam = await exams.get(officeId, examId);
    const row = await repo.findByCandidate(officeId, examId, candidateId);
    if (!row) throw new AppError(ErrorCode.Validation, '您还没有报名该考试');
    return fireAsCandidate(officeId, candidateId, exam, row, event, { facts: { fee: exam.fee } });
  }

  /** Fires the candidate's event on their application and answers its status as it now stands. */
  async function fireAsCandidate(
    officeId: number,
    candidateId: number,
    exam: Exam,
    row: ApplicationRow,
    event: ApplicationEvent,
    extra: Partial<Pick<FireInput, 'facts' | 'version'>>,
  ): Promise<ApplyStatus> {
    const done = await lifecycle.fire({
      officeId,
      application: row,
      event,
      actor: { kind: 'candidate', id: candidateId },
      phase: exam.phase,
      ...extra,
    });
    // Moved: the row is known without reading it again (but a submit has just been given its
    // 报名号); a repeat: another request moved it first.
    const known = done.changed && !(row.application_no === null && done.status === transitionOf('submit').to);
    return statusFor(exam, officeId, candidateId, known ? { ...row, status: done.status, reason: '' } : undefined);
  }

  async function position(officeId: number, examId: number, positionId: number) {
    const p = await positions.find(officeId, positionId);
    if (!p || p.exam_id !== examId) throw notFound('position');
    return p;
  }

  /** The candidate's status in an exam already read (saves reading it twice after a change). */
  async function statusFor(
    exam: Exam,
    officeId: number,
    candidateId: number,
    known?: Pick<ApplicationRow, 'id' | 'status' | 'reason' | 'position_id' | 'application_no'>,
  ): Promise<ApplyStatus> {
    const ctx = { phase: exam.phase };
    let row = known ?? (await repo.findByCandidate(officeId, exam.id, candidateId));
    // The deadline passed and no sweep has run yet: expire it now, so every call and every
    // process answers the same (the step is idempotent, whoever makes it first).
    const overdue = row ? canFire(row.status, 'expire', 'system', ctx) : null;
    if (row && overdue?.ok && !overdue.repeat) {
      const done = await lifecycle
        .fire({ officeId, application: { ...row, exam_id: exam.id }, event: 'expire', actor: { kind: 'system' }, phase: exam.phase })
        .catch(() => null);
      row = done?.changed ? { ...row, status: done.status, reason: '' } : await repo.findByCandidate(officeId, exam.id, candidateId);
    }
    if (!row)
      return {
        status: null,
        reason: '',
        history: [],
        positionId: null,
        canWithdraw: false,
        canEdit: canEdit(null, ctx).ok,
        applicationNo: null,
      };
    return {
      applicationNo: row.application_no,
      status: row.status,
      reason: row.reason,
      history: await repo.history(row.id),
      positionId: row.position_id,
      canWithdraw: availableEvents(row.status, 'candidate', ctx).includes('withdraw'),
      canEdit: canEdit(row.status, ctx).ok,
    };
  }

  return {
    async get(officeId: number, candidateId: number, examId: number): Promise<Application | null> {
      await exams.get(officeId, examId);
      const row = await repo.findByCandidate(officeId, examId, candidateId);
      return row ? toApplication(row) : null;
    },

    /**
     * Saves the draft as the candidate types, while the lifecycle leaves the form to them. A save
     * naming the version it was based on is refused when the form has moved on since (another tab
     * or device saved): never a silent overwrite.
     */
    async save(
      officeId: number,
      candidateId: number,
      input: { examId: number; positionId?: number | null | undefined; form?: ApplicationDraft | undefined; version?: number | undefined },
    ): Promise<Application> {
      const exam = await exams.get(officeId, input.examId);
      let row = await repo.findByCandidate(officeId, input.examId, candidateId);
      const editable = canEdit(row?.status ?? null, { phase: exam.phase });
      if (!editable.ok) throw new AppError(ErrorCode.Validation, editable.msg);
      if (input.positionId) await position(officeId, input.examId, input.positionId);
      // Choosing a position sends no form: the saved one stays exactly as it is.
      const form = input.form === undefined ? (row?.form ?? '{}') : JSON.stringify(input.form);
      if (!row) {
        try {
          await lifecycle.start({
            officeId,
            examId: input.examId,
            candidateId,
            positionId: input.positionId ?? null,
            form,
            phase: exam.phase,
          });
          row = await repo.findByCandidate(officeId, input.examId, candidateId);
          if (row) return toApplication(row);
        } catch (err) {
          // Two first saves at once (two tabs): the other made the row; save into it, unless
          // this one names the version it saw (none), and so must not overwrite the other's.
          if (!isUniqueViolation(err)) throw err;
          if (input.version !== undefined) throw new AppError(ErrorCode.Conflict, DRAFT_CONFLICT_TEXT);
        }
        row = await repo.findByCandidate(officeId, input.examId, candidateId);
      }
      if (!row) throw new AppError(ErrorCode.Internal);
      if (input.version !== undefined && input.version !== row.version) throw new AppError(ErrorCode.Conflict, DRAFT_CONFLICT_TEXT);
      const positionId = input.positionId === undefined ? row.position_id : input.positionId;
      // The repository checks the version again in the update itself: a save landing between the
      // read above and this write is not overwritten either.
      const saved = await repo.saveForm(officeId, row.id, { form, positionId, at: nowIso(), version: input.version });
      if (saved) return toApplication(saved);
      // Submitted meanwhile, or saved from elsewhere: say why, from what it is now.
      const now = await repo.findById(officeId, row.id);
      const locked = canEdit(now?.status ?? row.status, { phase: exam.phase });
      if (!locked.ok) throw new AppError(ErrorCode.Validation, locked.msg);
      if (input.version !== undefined && now && now.version !== input.version) throw new AppError(ErrorCode.Conflict, DRAFT_CONFLICT_TEXT);
      throw new AppError(ErrorCode.Validation, '报名状态已变化，请刷新后再试');
    },

    /** Submits for review (or again after a rejection); a repeated submit changes nothing. */
    async submit(
      officeId: number,
      candidateId: number,
      examId: number,
      opts: { version?: number | undefined; timeZone?: string | undefined } = {},
    ): Promise<ApplyStatus> {
      const exam = await exams.get(officeId, examId);
      const row = await repo.findByCandidate(officeId, examId, candidateId);
      if (!row) throw new AppError(ErrorCode.Validation, '请先填写报考信息');
      const pinned = opts.version === undefined ? undefined : { expected: opts.version, conflict: SUBMIT_CONFLICT_TEXT };
      const event = eventFrom(row.status, ['submit', 'resubmit']);
      // The lifecycle first (a repeat answers at once, a closed window before the form is judged).
      const verdict = canFire(row.status, event, 'candidate', { phase: exam.phase });
      if (!verdict.ok) throw new AppError(ErrorCode.Validation, verdict.msg);
      if (verdict.repeat) return statusFor(exam, officeId, candidateId, row);
      // What the candidate confirmed is what is submitted: not a form saved since from elsewhere.
      if (pinned && row.version !== pinned.expected) throw new AppError(ErrorCode.Conflict, pinned.conflict);
      const form = parseForm(row.form);
      if (!form.pledge) throw new AppError(ErrorCode.Validation, '请先阅读报考须知并签署诚信承诺');
      const missing = missingRequired(form, exam.config.required);
      if (missing.length > 0) throw new AppError(ErrorCode.Validation, `请填写：${missing.join('、')}`);
      const problem = formProblem(form);
      if (problem) throw new AppError(ErrorCode.Validation, problem);
      const today = clock.today(opts.timeZone ?? DEFAULT_TIME_ZONE);
      const graduation = graduationDateProblem(form.graduationDate, today);
      if (graduation) throw new AppError(ErrorCode.Validation, graduation);
      if (row.position_id === null) throw new AppError(ErrorCode.Validation, '请先选择报考岗位');
      const p = await position(officeId, examId, row.position_id);
      const candidate = await findCandidate(officeId, candidateId);
      if (!candidate) throw new AppError(ErrorCode.Unauthorized);
      const { eligible, reasons } = checkEligibility(parseRequirements(p.requirements), eligibilityProfile(candidate, row.form), today);
      if (!eligible) throw new AppError(ErrorCode.Validation, `不符合该岗位的报考条件：${reasons.join('。')}`);
      // The ID photo is part of the application: it goes on the admission ticket, and the
      // reviewer approves it with the rest.
      if (candidate.photo_id === null) throw new AppError(ErrorCode.Validation, PHOTO_REQUIRED_TEXT);
      if (submitGate) await submitGate(officeId, candidateId, exam, candidate.photo_id);
      return fireAsCandidate(officeId, candidateId, exam, row, event, { version: pinned });
    },

    /** Takes a submitted, not yet reviewed application back to draft. */
    withdraw(officeId: number, candidateId: number, examId: number): Promise<ApplyStatus> {
      return candidateStep(officeId, candidateId, examId, 'withdraw');
    },

    /** One-click confirmation, for an exam without a fee, inside its confirmation window. */
    confirm(officeId: number, candidateId: number, examId: number): Promise<ApplyStatus> {
      return candidateStep(officeId, candidateId, examId, 'confirm');
    },

    async status(officeId: number, candidateId: number, examId: number): Promise<ApplyStatus> {
      return statusFor(await exams.get(officeId, examId), officeId, candidateId);
    },

    /** Every application of the candidate in a published exam, newest first, with what they can do now. */
    async mine(officeId: number, candidateId: number): Promise<MyApplication[]> {
      const published = new Map((await exams.list(officeId)).map((e) => [e.id, e]));
      const [rows, account] = await Promise.all([repo.mine(officeId, candidateId), findCandidate(officeId, candidateId)]);
      return rows.flatMap((r): MyApplication[] => {
        const exam = published.get(r.exam_id);
        if (!exam) return [];
        const form = parseForm(r.form);
        const ctx = { phase: exam.phase };
        return [
          {
            id: r.id,
            exam,
            status: r.status,
            reason: r.reason,
            version: r.version,
            position:
              r.position_id !== null && r.position_code !== null && r.position_name !== null && r.position_unit !== null
                ? { id: r.position_id, code: r.position_code, name: r.position_name, unit: r.position_unit }
                : null,
            pledged: form.pledge === true,
            // Judged on the form as 填写报考信息 shows it (the account's mobile in an empty 联系电话).
            missing: missingRequired(formAsShown(form, account), exam.config.required),
            canEdit: canEdit(r.status, ctx).ok,
            canWithdraw: availableEvents(r.status, 'candidate', ctx).includes('withdraw'),
            submittedAt: r.submitted_at,
            updatedAt: r.updated_at,
            applicationNo: r.application_no,
            positionCancelled: r.position_cancelled_at !== null,
            ticketPrint:
              r.ticket_of !== null && r.tickets_published_at !== null && r.print_start !== null
                ? { start: r.print_start, end: r.print_end }
                : null,
          },
        ];
      });
    },

    /**
     * What a new application starts from: the person's fields (education, work, contact) of their
     * latest other application that has any, so a second exam is reviewed, not retyped.
     */
    async lastProfile(officeId: number, candidateId: number, examId: number): Promise<LastProfile> {
      const published = new Map((await exams.list(officeId)).map((e) => [e.id, e.name]));
      for (const r of await repo.mine(officeId, candidateId)) {
        if (r.exam_id === examId) continue;
        const form = profileOf(parseForm(r.form));
        if (Object.keys(form).length === 0) continue;
        return { examName: published.get(r.exam_id) ?? '往次考试', form: form as Record<string, string | number> };
      }
      return null;
    },

    /**
     * Why the candidate's ID photo cannot change now, or null: an application of an exam not yet
     * over is under review or approved, and the reviewer judges (or judged) that very photo.
     */
    async photoLock(officeId: number, candidateId: number): Promise<string | null> {
      const byId = new Map((await exams.list(officeId)).map((e) => [e.id, e]));
      const rows = await repo.mine(officeId, candidateId);
      // An exam no longer published still holds its reviewed photo: judged as not over.
      return photoLockOf(rows.map((r) => ({ status: r.status, exam: byId.get(r.exam_id) ?? { name: '报名', phase: 'reviewing' } })));
    },
  };
}
