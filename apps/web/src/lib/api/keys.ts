import type { DocumentType } from '@zhikaoyun/shared';

// The candidate site's query keys, one factory per noun, read by every query, cache write and
// invalidation of that noun (TanStack Query's, and lib/public-query.ts's on the public pages),
// and by the server render (entry-server.tsx), whose data the browser hydrates under the same
// keys. Here rather than beside each noun's calls because a change to one noun refreshes another
// (a submit refreshes the positions' counts) while features do not import each other; and this
// module imports nothing, so a public page may read a key without the calls' dependencies.

export const examKeys = {
  list: () => ['exams'] as const,
  current: () => ['currentExam'] as const,
};

/** The signed-in candidate's account. */
export const accountKeys = {
  userInfo: () => ['userInfo'] as const,
};

/** The candidate's applications and what hangs on one (its fee, its site city). */
export const applicationKeys = {
  mine: () => ['myApplications'] as const,
  detail: (examId: number | undefined) => ['application', examId] as const,
  status: (examId: number | undefined) => ['applyStatus', examId] as const,
  lastProfile: (examId: number) => ['lastProfile', examId] as const,
  payment: (examId: number) => ['paymentStatus', examId] as const,
  siteCity: (examId: number) => ['mySiteCity', examId] as const,
};

/** The filters a page of positions is read with (a page's key carries them). */
export interface PositionPageFilter {
  keyword: string;
  unit: string;
  education: string;
  page: number;
}

export const positionKeys = {
  all: () => ['positions'] as const,
  page: (examId: number | undefined, f: PositionPageFilter & { eligibleOnly?: boolean }, withEligibility: boolean) =>
    ['positions', examId, f, withEligibility] as const,
  /** A page of the public (read-only) list, which the server renders (entry-server.tsx). */
  publicPage: (examId: number, f: PositionPageFilter) =>
    ['positions', examId, { keyword: f.keyword, unit: f.unit, education: f.education, page: f.page }, false] as const,
  detail: (id: number | null | undefined) => ['position', id] as const,
  switchTargets: (examId: number) => ['switchTargets', examId] as const,
};

export const noticeKeys = {
  /** A page of 通知公告: one exam's, or all. */
  page: (page: number, examId?: number) => (examId === undefined ? (['notices', page] as const) : (['notices', page, examId] as const)),
  detail: (id: number) => ['notice', id] as const,
};

/** An exam's documents (招考公告, 报考须知, …), all or of one type. */
export const documentKeys = {
  list: (examId: number | undefined, type?: DocumentType) => ['examDocuments', examId, type] as const,
};

export const systemKeys = {
  treaty: () => ['treatyDesc'] as const,
  smsConfig: () => ['smsConfig'] as const,
};

export const messageKeys = {
  list: () => ['messages', 'list'] as const,
  unread: () => ['messages', 'unread'] as const,
};

export const scoreKeys = {
  mine: (examId: number | undefined) => ['myScore', examId] as const,
  interviewList: (examId: number | undefined) => ['interviewList', examId] as const,
};

export const stageKeys = {
  mine: (examId: number | undefined) => ['myStages', examId] as const,
  lists: (examId: number | undefined) => ['stageLists', examId] as const,
};

export const ticketKeys = {
  mine: (examId: number) => ['admissionTicket', examId] as const,
};
