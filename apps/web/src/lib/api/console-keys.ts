import type { AnnouncementAudience, AppealStatus, ReviewListQuery, SmsStatus } from '@zhikaoyun/shared';

// The console's query keys, one factory per noun, read by every query, cache write and
// invalidation of that noun. Here rather than beside each feature's calls because a change to
// one noun refreshes others (seating refreshes the exams' ticket state, a review decision the
// positions' counts) while features do not import each other. Every key begins with 'console'.

export const examKeys = {
  all: () => ['console', 'admin-exams'] as const,
  documents: (examId: number | undefined) => ['console', 'exam-documents', examId] as const,
};

export const positionKeys = {
  all: () => ['console', 'positions'] as const,
  list: (examId: number | undefined) => ['console', 'positions', examId] as const,
  units: () => ['console', 'units'] as const,
};

export const arrangementKeys = {
  all: () => ['console', 'arrangement'] as const,
  subjects: (examId: number | undefined) => ['console', 'arrangement', 'subjects', examId] as const,
  overview: (examId: number | undefined) => ['console', 'arrangement', 'overview', examId] as const,
  doorCheckExam: () => ['console', 'door-check-exam'] as const,
};

export const reviewKeys = {
  lists: () => ['console', 'reviews'] as const,
  list: (q: ReviewListQuery | null) => ['console', 'reviews', q] as const,
  details: () => ['console', 'review'] as const,
  detail: (id: number | null) => ['console', 'review', id] as const,
  statistics: () => ['console', 'stats'] as const,
  statisticsOf: (examId: number | undefined) => ['console', 'stats', examId] as const,
  reasons: () => ['console', 'rejection-reasons'] as const,
};

export const paymentKeys = {
  all: () => ['console', 'payments'] as const,
  list: (q: object) => ['console', 'payments', 'list', q] as const,
  events: (examId: number | undefined) => ['console', 'payments', 'events', examId] as const,
  waivers: (q: object) => ['console', 'payments', 'waivers', q] as const,
  opening: (examId: number | undefined) => ['console', 'payments', 'opening', examId] as const,
};

export const scoreKeys = {
  all: () => ['console', 'scores'] as const,
  rules: (examId: number | undefined) => ['console', 'scores', 'rules', examId] as const,
  ranking: (examId: number | undefined, positionId: number | undefined) => ['console', 'scores', 'ranking', examId, positionId] as const,
  reviews: (examId: number | undefined, status: 'pending' | 'answered' | undefined) =>
    ['console', 'scores', 'reviews', examId, status] as const,
};

export const stageKeys = {
  all: () => ['console', 'stages'] as const,
  board: (examId: number | undefined) => ['console', 'stages', 'board', examId] as const,
};

export const noticeKeys = {
  all: () => ['console', 'notices'] as const,
  page: (page: number) => ['console', 'notices', 'page', page] as const,
  detail: (id: number | undefined) => ['console', 'notices', 'detail', id] as const,
};

export const messageKeys = {
  outbox: () => ['console', 'sms-outbox'] as const,
  outboxPage: (status: SmsStatus | undefined, page: number) => ['console', 'sms-outbox', status ?? 'all', page] as const,
  announcementPreview: (examId: number | undefined, audience: AnnouncementAudience) =>
    ['console', 'announcement-preview', examId, audience] as const,
  settings: () => ['console', 'notification-settings'] as const,
};

export const appealKeys = {
  all: () => ['console', 'appeals'] as const,
  list: (status: AppealStatus | undefined, page: number) => ['console', 'appeals', status, page] as const,
};

export const auditKeys = {
  page: (page: number) => ['console', 'audit', page] as const,
  chain: () => ['console', 'audit', 'chain'] as const,
};

export const staffKeys = {
  all: () => ['console', 'staff'] as const,
};

/** The signed-in staff member's own second factor (两步验证). */
export const totpKeys = {
  status: () => ['console', 'totp-status'] as const,
};

/** 安全管理: the staff's sign-in state (failures, locks, sessions). */
export const securityKeys = {
  staff: () => ['console', 'security', 'staff'] as const,
};

export const officeKeys = {
  settings: () => ['console', 'office'] as const,
};
