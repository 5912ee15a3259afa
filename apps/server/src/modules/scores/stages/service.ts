import {
  combinedScore,
  competitionRanks,
  ErrorCode,
  fromHundredths,
  LATER_STATES,
  laterStateOf,
  LATER_STAGE_TEXT,
  LATER_STAGES,
  maskName,
  medicalEntrants,
  resultEvent,
  STAGE_LIST_TEXT,
  STAGE_OUTCOME_TEXT,
  type LaterStage,
  type LaterStatus,
  type MyStages,
  type RecordStageResultsInput,
  type StageBoard,
  type StageList,
  type StageOutcome,
  type StageRow,
} from '@zhikaoyun/shared';
import { AppError } from '../../../lib/app-error';
import { clock } from '../../../lib/clock';
import type { OfficeLock } from '../../../lib/office-lock';
import type { StaffPrincipal } from '../../../plugins/auth';
import type { AuditService } from '../../platform/audit/service';
import type { ExamLookup } from '../../content/exams/lookup';
import type { NotificationsService } from '../../messages/notifications/service';
import { officeAdminScope } from '../../access/scope';
import type { HeavyTasks } from '../../../heavy-tasks';
import type { ScoresService } from '../scores/service';
import type { LaterLifecycle, LaterStep } from './lifecycle';
import { beforeInterview, ENTRANT } from './entrant';
import { createInterviewScoresService } from './interview-scores';
import type { StagesRepository } from './repository';

export interface StagesDeps {
  repo: StagesRepository;
  /** Where the later stages start: the interview list's entrants. */
  scores: Pick<ScoresService, 'entrants'>;
  audit: AuditService;
  /** The one writer of the results (the machine after confirmation judges every step). */
  later: LaterLifecycle;
  exams: ExamLookup;
  /** One Excel import per office at a time (shared with the other imports). */
  importLock: OfficeLock;
  /** A stage published the first time: each candidate it concerns is told, with the publishing. */
  notifications: Pick<NotificationsService, 'stepToApplication'>;
  /** After each committed change: public lists show it on their next read. */
  changed: (officeId: number) => Promise<void>;
  /** The sheet read off the event loop (a worker thread, decision 014). */
  heavy: Pick<HeavyTasks, 'readScores'>;
}

type Result = { outcome: StageOutcome; score: number | null };
type Computed = StageBoard['positions'];

const DEFAULT_INTERVIEW_WEIGHT = 50;
const staffOutcome = (r: Result | undefined) =>
  r && (r.outcome === 'pass' || r.outcome === 'fail' || r.outcome === 'gaveUp') ? r.outcome : null;

/**
 * The stages after the interview list: 资格复审 and 体检 results recorded by staff, interview
 * scores imported like the written ones, the combined score and final ranking, the 体检 and 拟录用
 * lists by the shared rules (packages/shared/src/scores/stages.ts), and publishing each stage.
 */
export function createStagesService(deps: StagesDeps) {
  const { repo, audit, changed, exams, later } = deps;

  /** Every entrant of every position through the stages, by the results recorded so far. */
  async function compute(officeId: number, examId: number): Promise<{ positions: Computed; weight: number }> {
    const [{ positions, entrants }, stored, weight] = await Promise.all([
      deps.scores.entrants(officeId, examId),
      repo.results(officeId, examId),
      repo.interviewWeight(officeId, examId),
    ]);
    const w = weight ?? DEFAULT_INTERVIEW_WEIGHT;
    const results = new Map<string, Result>(stored.map((r) => [`${r.application_id}:${r.stage}`, { outcome: r.outcome, score: r.score }]));
    const resultOf = (applicationId: number, stage: LaterStage) => results.get(`${applicationId}:${stage}`);
    const out: Computed = [];
    for (const p of positions) {
      // Cancelled at close-out: it recruits no one, so it has no later stages (nor an empty table).
      if (p.cancelled_at !== null) continue;
      const rows: StageRow[] = entrants
        .filter((e) => e.position_id === p.id)
        .map((e) => {
          const qualification = staffOutcome(resultOf(e.application_id, 'qualification'));
          const i = resultOf(e.application_id, 'interview');
          const interview =
            i && (i.outcome === 'score' || i.outcome === 'absent' || i.outcome === 'void')
              ? { outcome: i.outcome, score: i.score === null ? null : fromHundredths(i.score) }
              : null;
          const eligible = LATER_STATES[beforeInterview(qualification)].inRunning;
          const combined = eligible && i?.outcome === 'score' && i.score !== null ? combinedScore(e.total, i.score, w) : null;
          return {
            applicationId: e.application_id,
            ticketNo: e.ticket_no,
            name: e.name,
            written: fromHundredths(e.total),
            qualification,
            interview,
            combined: combined === null ? null : fromHundredths(combined),
            finalRank: null,
            inMedical: false,
            medical: staffOutcome(resultOf(e.application_id, 'medical')),
            hired: false,
            state: beforeInterview(qualification),
          };
        });
      const scored = rows.filter((r) => r.combined !== null);
      const ranks = competitionRanks(scored.map((r) => r.combined ?? 0));
      scored.forEach((r, k) => (r.finalRank = ranks[k] ?? null));
      scored.sort((a, b) => (a.finalRank ?? 0) - (b.finalRank ?? 0) || a.ticketNo.localeCompare(b.ticketNo));
      const take = medicalEntrants(
        scored.map((r) => ({
          rank: r.finalRank ?? 0,
          out: !LATER_STATES[laterStateOf({ ...ENTRANT, inMedical: true, medical: r.medical })].inRunning,
        })),
        p.headcount,
      );
      scored.forEach((r, k) => {
        r.inMedical = take[k] ?? false;
        r.hired = laterStateOf({ ...ENTRANT, inMedical: r.inMedical, medical: r.medical }) === 'hired';
      });
      for (const r of rows)
        r.state = laterStateOf({
          ...ENTRANT,
          qualification: r.qualification,
          interview: r.interview?.outcome ?? null,
          inMedical: r.inMedical,
          medical: r.medical,
        });
      // Best first by the final ranking, then the others by written total.
      const unranked = rows.filter((r) => r.combined === null);
      out.push({ positionId: p.id, code: p.code, name: p.name, headcount: p.headcount, rows: [...scored, ...unranked] });
    }
    return { positions: out, weight: w };
  }

  /** Who sits the interview: the list's entrants not failed or given up at 资格复审, by position. */
  async function interviewees(officeId: number, examId: number) {
    const { positions } = await compute(officeId, examId);
    return positions
      .flatMap((p) => p.rows.map((r) => ({ r, positionId: p.positionId })))
      .filter(({ r }) => LATER_STATES[beforeInterview(r.qualification)].interviews);
  }

  async function published(examId: number): Promise<StageBoard['published']> {
    const rows = await repo.publications(examId);
    const at = (s: LaterStage) => rows.find((r) => r.stage === s)?.published_at ?? null;
    return { qualification: at('qualification'), interview: at('interview'), medical: at('medical'), hire: at('hire') };
  }

  /** Who a published list shows: the entrants who passed 资格复审, everyone ranked, those in 体检, those hired. */
  /** What a stage's publishing tells each candidate it concerns (null: not concerned). */
  const told: Record<LaterStage, (r: StageRow) => string | null> = {
    qualification: (r) => (r.qualification === null ? null : `资格复审结果已公布：${STAGE_OUTCOME_TEXT[r.qualification]}`),
    interview: (r) =>
      r.interview === null
        ? null
        : `面试成绩已公布：${r.interview.outcome === 'score' ? `面试 ${r.interview.score ?? ''} 分` : STAGE_OUTCOME_TEXT[r.interview.outcome]}${
            r.finalRank === null ? '' : `，综合成绩岗位第 ${r.finalRank} 名`
          }`,
    medical: (r) => (r.inMedical ? '您已进入体检环节，请按公告要求参加体检' : null),
    hire: (r) => (r.medical === null ? null : r.hired ? '您已列入拟录用人员名单' : '拟录用人员名单已公布，您未列入'),
  };

  const shown: Record<LaterStage, (r: StageRow) => boolean> = {
    qualification: (r) => r.qualification === 'pass',
    interview: (r) => r.finalRank !== null,
    medical: (r) => r.inMedical,
    hire: (r) => r.hired,
  };

  /** A stage's public list: who it shows, names masked. */
  function publicList(examName: string, examId: number, positions: Computed, stage: LaterStage, publishedAt: string): StageList {
    return {
      examId,
      examName,
      stage,
      title: STAGE_LIST_TEXT[stage],
      publishedAt,
      positions: positions
        .map((p) => ({
          positionId: p.positionId,
          positionName: p.name,
          headcount: p.headcount,
          list: p.rows.filter(shown[stage]).map((r) => ({
            ticketNo: r.ticketNo,
            name: maskName(r.name),
            written: stage === 'qualification' ? null : r.written,
            interview: stage === 'qualification' ? null : (r.interview?.score ?? null),
            combined: stage === 'qualification' ? null : r.combined,
            rank: stage === 'qualification' ? null : r.finalRank,
          })),
        }))
        .filter((p) => p.list.length > 0),
    };
  }

  return {
    ...createInterviewScoresService(deps, interviewees),

    async board(staff: StaffPrincipal, examId: number): Promise<StageBoard> {
      const { officeId } = officeAdminScope(staff);
      await exams.require(officeId, examId);
      const [{ positions, weight }, pub] = await Promise.all([compute(officeId, examId), published(examId)]);
      return { examId, interviewWeight: weight, published: pub, positions: positions.filter((p) => p.rows.length > 0) };
    },

    async saveWeight(staff: StaffPrincipal, input: { examId: number; interviewWeight: number }, ip: string): Promise<void> {
      const { officeId } = officeAdminScope(staff);
      await exams.require(officeId, input.examId);
      await repo.commit(async (trx) => {
        if (!(await repo.saveInterviewWeight(trx, officeId, input.examId, input.interviewWeight, clock.nowIso())))
          throw new AppError(ErrorCode.Validation, '请先保存该考试的成绩规则');
        await audit.record(
          staff,
          '设置综合成绩比例',
          `exam:${input.examId}`,
          `笔试 ${100 - input.interviewWeight}%，面试 ${input.interviewWeight}%`,
          ip,
          trx,
        );
      });
      await changed(officeId);
    },

    /**
     * 资格复审 or 体检 results for candidates of that stage, each a step of the machine after
     * confirmation from the row's state; a ticket outside the stage, or a step the machine refuses,
     * refuses the batch. A result already recorded is a repeat: nothing is written for it.
     */
    async recordResults(staff: StaffPrincipal, input: RecordStageResultsInput, ip: string): Promise<{ saved: number }> {
      const { officeId } = officeAdminScope(staff);
      await exams.require(officeId, input.examId);
      const { positions } = await compute(officeId, input.examId);
      const rows = positions.flatMap((p) => p.rows);
      const inStage = new Map(rows.filter((r) => (input.stage === 'qualification' ? true : r.inMedical)).map((r) => [r.ticketNo, r]));
      const outside = input.results.filter((r) => !inStage.has(r.ticketNo.trim())).map((r) => r.ticketNo);
      if (outside.length > 0)
        throw new AppError(
          ErrorCode.Validation,
          `${outside.slice(0, 5).join('、')}${outside.length > 5 ? ` 等 ${outside.length} 人` : ''}不在${
            input.stage === 'qualification' ? '面试名单' : '体检名单'
          }中，未保存任何结果`,
        );
      const steps: LaterStep[] = input.results.flatMap((r) => {
        const row = inStage.get(r.ticketNo.trim())!;
        if (row[input.stage] === r.outcome) return [];
        return [{ applicationId: row.applicationId, ticketNo: row.ticketNo, from: row.state, event: resultEvent(input.stage, r.outcome) }];
      });
      if (steps.length > 0) {
        const counts = (['pass', 'fail', 'gaveUp'] as const)
          .map((o) => [o, input.results.filter((r) => r.outcome === o).length] as const)
          .filter(([, n]) => n > 0)
          .map(([o, n]) => `${STAGE_OUTCOME_TEXT[o]} ${n} 人`);
        await later.fire({
          officeId,
          examId: input.examId,
          actor: staff,
          ip,
          steps,
          audit: { action: input.stage === 'qualification' ? '记录资格复审结果' : '记录体检结果', detail: counts.join('，') },
        });
        await changed(officeId);
      }
      return { saved: input.results.length };
    },

    /** 公示 a stage: its list opens to anyone and each candidate sees their own result. Again: a new time. */
    async publish(staff: StaffPrincipal, input: { examId: number; stage: LaterStage }, ip: string): Promise<{ listed: number }> {
      const { officeId } = officeAdminScope(staff);
      await exams.require(officeId, input.examId);
      const { positions } = await compute(officeId, input.examId);
      const rows = positions.flatMap((p) => p.rows);
      const ready: Record<LaterStage, [boolean, string]> = {
        qualification: [rows.some((r) => r.qualification !== null), '还没有记录资格复审结果，不能公布'],
        interview: [rows.some((r) => r.interview !== null), '还没有导入面试成绩，不能公布'],
        medical: [rows.some((r) => r.inMedical), '还没有进入体检的考生（请先导入面试成绩），不能公布'],
        hire: [rows.some((r) => r.medical !== null), '还没有记录体检结果，不能公布'],
      };
      const [ok, why] = ready[input.stage];
      if (!ok) throw new AppError(ErrorCode.Validation, why);
      const listed = rows.filter(shown[input.stage]).length;
      // Told once, on the first publishing; publishing again (after a correction) only moves the time.
      const first = (await published(input.examId))[input.stage] === null;
      const at = clock.nowIso();
      await repo.commit(async (trx) => {
        await repo.publish(trx, input.examId, input.stage, at);
        let n = 0;
        if (first)
          for (const r of rows) {
            const detail = told[input.stage](r);
            if (detail === null) continue;
            await deps.notifications.stepToApplication(trx, {
              officeId,
              applicationId: r.applicationId,
              kind: 'next_stage_result',
              detail,
              at,
            });
            n += 1;
          }
        const note = `${listed} 人${n > 0 ? `；通知 ${n} 人` : ''}`;
        await audit.record(staff, `公布${STAGE_LIST_TEXT[input.stage]}`, `exam:${input.examId}`, note, ip, trx);
      });
      await changed(officeId);
      return { listed };
    },

    /** Each entrant's state in the machine after confirmation, by application (the scores page offers 放弃面试 by it). */
    async states(officeId: number, examId: number): Promise<ReadonlyMap<number, LaterStatus>> {
      const { positions } = await compute(officeId, examId);
      return new Map(positions.flatMap((p) => p.rows.map((r) => [r.applicationId, r.state] as const)));
    },

    /** A published stage's list for anyone, names masked; refused before it is published. */
    async list(officeId: number, examId: number, stage: LaterStage): Promise<StageList> {
      const exam = await exams.require(officeId, examId);
      const at = (await published(examId))[stage];
      if (!at) throw new AppError(ErrorCode.Validation, `${STAGE_LIST_TEXT[stage]}尚未公布`);
      const { positions } = await compute(officeId, examId);
      return publicList(exam.name, examId, positions, stage, at);
    },

    /** Every published stage's list of the exam, in stage order (none before the first is published). */
    async lists(officeId: number, examId: number): Promise<StageList[]> {
      const exam = await exams.require(officeId, examId);
      const pub = await published(examId);
      const stages = LATER_STAGES.flatMap((stage) => {
        const at = pub[stage];
        return at === null ? [] : [{ stage, at }];
      });
      if (stages.length === 0) return [];
      const { positions } = await compute(officeId, examId);
      return stages.map(({ stage, at }) => publicList(exam.name, examId, positions, stage, at));
    },

    /** The candidate's own results of the stages published so far (none before, or not an entrant). */
    async mine(officeId: number, candidateId: number, examId: number): Promise<MyStages> {
      const app = await repo.myApplication(officeId, candidateId, examId);
      if (!app) return [];
      const pub = await published(examId);
      if (!Object.values(pub).some((v) => v !== null)) return [];
      const { positions } = await compute(officeId, examId);
      const me = positions.flatMap((p) => p.rows).find((r) => r.applicationId === app.id);
      if (!me) return [];
      const out: MyStages = [];
      const add = (stage: LaterStage, result: string, extra: Partial<MyStages[number]> = {}) => {
        const at = pub[stage];
        if (at)
          out.push({
            stage,
            label: LATER_STAGE_TEXT[stage],
            publishedAt: at,
            result,
            interview: null,
            combined: null,
            rank: null,
            ...extra,
          });
      };
      add('qualification', me.qualification ? STAGE_OUTCOME_TEXT[me.qualification] : '待复审');
      add('interview', me.interview ? STAGE_OUTCOME_TEXT[me.interview.outcome] : '无面试成绩', {
        interview: me.interview?.score ?? null,
        combined: me.combined,
        rank: me.finalRank,
      });
      add('medical', me.inMedical ? (me.medical ? `进入体检，${STAGE_OUTCOME_TEXT[me.medical]}` : '进入体检') : '未进入体检');
      add('hire', me.hired ? '拟录用' : '未拟录用');
      return out;
    },
  };
}
