import type { Deadline } from '../deadline';
import type { Exam } from '../content/exams';
import type { HistoryEntry } from './applications';
import type { MyApplication } from './journey';
import { APPLICATION_STATUS_LABEL, APPLICATION_TRANSITIONS, formLock, type ApplicationEvent, type ApplicationStatus } from './lifecycle';
import { DEFAULT_TIME_ZONE, zonedDateTime } from '../clock';
import { formatFen } from '../money';

/**
 * The candidate's way through an exam, as the site shows it: where each application stands, the
 * next step, its deadline and why. One set of rules for the status page, 我的报名 in the personal
 * center, the exam list's cards and the step bar on each page of the application. Schema-free
 * (the schemas are in journey.ts), so the plain pages that show it load no zod.
 */

/** Why the photo cannot change now: the reviewer is judging (or has approved) this one. */
export function photoLockedText(examName: string, locked: string): string {
  return `「${examName}」${locked}；证件照随报名信息一起审核，暂不能更换`;
}

/**
 * The stages of an application the step bar shows, in order, from reading the notice to the
 * scores. 核对 is the candidate checking their own form before submitting; 缴费 is 报名确认 (the
 * fee, a waiver or, without a fee, one click: then the bar says 确认).
 */
export const JOURNEY_STEPS = ['须知', '信息', '岗位', '核对', '审核', '缴费', '准考证', '成绩'] as const;
export type JourneyStepName = (typeof JOURNEY_STEPS)[number];
/** Index of each step in JOURNEY_STEPS. */
export const STEP = { notice: 0, info: 1, position: 2, check: 3, review: 4, confirm: 5, ticket: 6, scores: 7 } as const;

/** The step bar's titles for an exam: its 报名确认 step says 缴费 when there is a fee, else 确认. */
export function journeyStepTitles(exam: Pick<Exam, 'fee'>): string[] {
  return JOURNEY_STEPS.map((t) => (t === '缴费' && exam.fee === 0 ? '确认' : t));
}

export interface Journey {
  /** Index into JOURNEY_STEPS of the step the candidate is at. */
  step: number;
  /** How that step stands: still to do, waiting on others, refused, or done. */
  stepStatus: 'process' | 'wait' | 'error' | 'finish';
  /** What the candidate should do next, in plain words. */
  next: string;
  deadline: Deadline | null;
  /** The page that takes the next step, when the candidate can take it. */
  action: { label: string; path: string } | null;
  /**
   * The headline of the exam card and the status page, when something more urgent than the
   * application's status needs the candidate now (a cancelled post, a ticket to print).
   */
  headline: string | null;
}

const registrationEnds = (exam: Exam): Deadline => ({ label: '报名截止', at: exam.registrationEnd });

/** "12月5日 21:40": a moment of the office's clock as a candidate reads a deadline in a sentence. */
export function officeMoment(instant: string): string {
  const t = zonedDateTime(instant, DEFAULT_TIME_ZONE);
  return t ? `${Number(t.slice(5, 7))}月${Number(t.slice(8, 10))}日 ${t.slice(11, 16)}` : '';
}

/** What a confirmed candidate whose post close-out cancelled must do, until the switch window closes. */
export function positionCancelledHeadline(exam: Pick<Exam, 'switchEnd'>): string {
  return exam.switchEnd ? `岗位已取消，请于${officeMoment(exam.switchEnd)}前改报或放弃` : '岗位已取消，请等待改报通知';
}

/** A confirmed application: the cancelled post first, then the ticket, then the scores. */
function confirmedJourney(exam: Exam, application: MyApplication, now: string): Journey {
  const switchOpen = exam.switchEnd === null || now <= exam.switchEnd;
  if (application.positionCancelled && switchOpen) {
    const started = exam.switchStart !== null && now >= exam.switchStart;
    // 缴费 is done (a switch keeps it): what the cancelled post holds up is the ticket.
    return {
      step: STEP.ticket,
      stepStatus: 'error',
      next: started
        ? '所报岗位未达开考比例已取消：请改报本考试其他岗位，或放弃报考'
        : `所报岗位未达开考比例已取消，改报${exam.switchStart ? `将于${officeMoment(exam.switchStart)}开始` : '时间另行通知'}`,
      deadline: started && exam.switchEnd ? { label: '改报截止', at: exam.switchEnd } : null,
      action: started ? { label: '去改报', path: '/current-exam' } : null,
      headline: positionCancelledHeadline(exam),
    };
  }
  const print = application.ticketPrint;
  if (print && now < print.start) {
    return {
      step: STEP.ticket,
      stepStatus: 'wait',
      next: `准考证将于${officeMoment(print.start)}开放打印`,
      deadline: { label: '准考证打印开始', at: print.start },
      action: null,
      headline: null,
    };
  }
  if (print && (print.end === null || now <= print.end)) {
    return {
      step: STEP.ticket,
      stepStatus: 'process',
      next: `准考证已可打印，请下载打印并按准考证上的时间、地点参加考试`,
      deadline: print.end ? { label: '准考证打印截止', at: print.end } : null,
      action: { label: '打印准考证', path: '/current-exam' },
      headline: '准考证已可打印',
    };
  }
  if (print) {
    return {
      step: STEP.scores,
      stepStatus: 'wait',
      next: '准考证打印已结束，请关注成绩公布',
      deadline: null,
      action: null,
      headline: null,
    };
  }
  return {
    step: STEP.ticket,
    stepStatus: 'wait',
    next: '报名已确认，请关注准考证打印时间和通知公告',
    deadline: null,
    action: null,
    headline: null,
  };
}

/**
 * Where a candidate stands in an exam: `application` null when they have not started. `hasPhoto`:
 * the account has its ID photo, which a submit needs. `now`: the clock the windows of a confirmed
 * application (switch, ticket printing) are read on.
 */
export function journeyOf(exam: Exam, application: MyApplication | null, hasPhoto: boolean, now = new Date().toISOString()): Journey {
  return { headline: null, ...journeyOfStatus(exam, application, hasPhoto, now) };
}

type StatusJourney = Omit<Journey, 'headline'> & Partial<Pick<Journey, 'headline'>>;

function journeyOfStatus(exam: Exam, application: MyApplication | null, hasPhoto: boolean, now: string): StatusJourney {
  const open = exam.phase === 'registering';
  if (!open && (application === null || application.status === 'draft')) {
    if (exam.phase === 'upcoming') {
      return {
        step: 0,
        stepStatus: 'wait',
        next: '报名尚未开始，届时可阅读报考须知并开始报名',
        deadline: { label: '报名开始', at: exam.registrationStart },
        action: null,
      };
    }
    return {
      step: application ? STEP.check : STEP.notice,
      stepStatus: 'error',
      next: '报名已截止，未提交的报名不能再提交',
      deadline: null,
      action: null,
    };
  }
  if (application === null) {
    return {
      step: 0,
      stepStatus: 'process',
      next: '阅读报考须知，签署诚信承诺后开始填写',
      deadline: registrationEnds(exam),
      action: { label: '开始报名', path: '/application-instructions' },
    };
  }
  const status: ApplicationStatus = application.status;
  switch (status) {
    case 'draft':
    case 'rejected': {
      const rejected = status === 'rejected';
      if (!application.pledged) {
        return {
          step: 0,
          stepStatus: 'process',
          next: '阅读报考须知并签署诚信承诺',
          deadline: registrationEnds(exam),
          action: { label: '继续报名', path: '/application-instructions' },
        };
      }
      const todo = [...application.missing, ...(hasPhoto ? [] : ['证件照'])];
      if (todo.length > 0) {
        return {
          step: 1,
          stepStatus: rejected ? 'error' : 'process',
          next: `${rejected ? '按审核意见修改，' : ''}完成报考信息：还需填写${todo.join('、')}`,
          deadline: registrationEnds(exam),
          action: { label: rejected ? '修改报考信息' : '继续填写', path: '/fill-info' },
        };
      }
      if (!application.position) {
        return {
          step: 2,
          stepStatus: 'process',
          next: '选择报考岗位',
          deadline: registrationEnds(exam),
          action: { label: '选择岗位', path: '/job-positions' },
        };
      }
      if (rejected) {
        return {
          step: STEP.review,
          stepStatus: 'error',
          next: '资格审查未通过：请按审核意见修改报考信息后重新提交',
          deadline: registrationEnds(exam),
          action: { label: '修改并重新提交', path: '/fill-info' },
        };
      }
      return {
        step: STEP.check,
        stepStatus: 'process',
        next: '核对报考信息并提交',
        deadline: registrationEnds(exam),
        action: { label: '去核对提交', path: '/confirm-info' },
      };
    }
    case 'submitted':
      return {
        step: STEP.review,
        stepStatus: 'wait',
        next: '已提交，等待资格审查',
        deadline: { label: '资格审查截止', at: exam.reviewEnd },
        action: null,
      };
    case 'approved': {
      // Approved is not yet registered: the confirmation (fee, waiver or one click) comes next.
      const confirm = exam.fee > 0 ? `缴纳报名费 ${formatFen(exam.fee)}（或申请减免）` : '确认报名';
      if (exam.phase === 'confirming') {
        return {
          step: STEP.confirm,
          stepStatus: 'process',
          next: `资格审查已通过，请在截止前${confirm}，逾期报名无效`,
          deadline: { label: '报名确认截止', at: exam.confirmationEnd },
          action: { label: exam.fee > 0 ? '去缴费' : '去确认', path: '/current-exam' },
        };
      }
      if (exam.phase === 'closed') {
        return { step: STEP.confirm, stepStatus: 'wait', next: '资格审查已通过，请关注通知公告', deadline: null, action: null };
      }
      return {
        step: STEP.confirm,
        stepStatus: 'wait',
        next: `资格审查已通过，报名确认开始后请${confirm}`,
        deadline: { label: '报名确认开始', at: exam.confirmationStart },
        action: null,
      };
    }
    case 'confirmed':
      return confirmedJourney(exam, application, now);
    case 'rejectedFinal':
      return {
        step: STEP.review,
        stepStatus: 'error',
        next: '资格审查不通过（不得再报），本次考试不能再修改或重新提交报名',
        deadline: null,
        action: null,
      };
    case 'expired':
      return { step: STEP.confirm, stepStatus: 'error', next: '未在报名确认截止前完成确认，报名无效', deadline: null, action: null };
    case 'cancelled':
      return {
        step: STEP.confirm,
        stepStatus: 'error',
        next: '所报岗位未达开考比例已取消，报名已取消；已缴报名费原路退回',
        deadline: null,
        action: null,
      };
    default: {
      const unknown: never = status;
      return unknown;
    }
  }
}

/** How the status history names each step, by the event that made it (a withdrawal reads 已撤回). */
const EVENT_WORDS: Partial<Record<ApplicationEvent, string>> = {
  submit: '提交报名',
  resubmit: '重新提交',
  withdraw: '已撤回',
  approve: '审核通过',
  reject: '审核未通过',
  rejectFinal: '审核不通过（不得再报）',
};

/** The words of each entry of a status history, in its order: the first is the start of the form. */
export function historyWords(history: readonly Pick<HistoryEntry, 'status'>[]): string[] {
  return history.map((h, i) => {
    if (i === 0) return '开始填写报名';
    const prev = history[i - 1]!.status;
    const event = (Object.keys(APPLICATION_TRANSITIONS) as ApplicationEvent[]).find((e) => {
      const t = APPLICATION_TRANSITIONS[e];
      return t.to === h.status && (t.from as readonly ApplicationStatus[]).includes(prev);
    });
    return (event && EVENT_WORDS[event]) ?? APPLICATION_STATUS_LABEL[h.status];
  });
}

/**
 * Why the ID photo cannot change now, or null: an application of an exam not yet over is under
 * review or approved (its form is locked), and the reviewer judges, or judged, that very photo.
 */
export function photoLockOf(applications: readonly { status: ApplicationStatus; exam: Pick<Exam, 'name' | 'phase'> }[]): string | null {
  for (const a of applications) {
    const lock = formLock(a.status);
    if (lock && a.exam.phase !== 'closed') return photoLockedText(a.exam.name, lock);
  }
  return null;
}
