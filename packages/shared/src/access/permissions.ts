import { STAFF_ROLES, type StaffRole } from '../phases-and-roles';

/**
 * Who may call each office-console route: the one permission table (三权分立, decision 031).
 * The server's auth plugin refuses a staff session whose role a route's row does not list
 * (errorCode 403, 无权访问) and refuses every staff route that has no row; the console derives
 * its menu, its pages' 无权访问 and its buttons from the same rows (`mayCall`).
 * apps/server/test/permission-matrix.test.ts fails on a route without a row, a row without a
 * route, and a role answered otherwise than its row says.
 *
 * `public`: no session at all (signing in).
 */
const EVERY_STAFF = STAFF_ROLES;
/** The exam's work that reviewers share: reading the exam, the queue and deciding in their units. */
const EXAM_STAFF = ['admin', 'reviewer'] as const;
/** The exam's work and the staff accounts. */
const ADMIN = ['admin'] as const;
/** The staff's sign-in security: policy, second factors, lockouts, sessions. Nothing of exams or candidates. */
const SECURITY = ['security'] as const;
/** The audit log, read and exported. Nothing else. */
const AUDITOR = ['auditor'] as const;

export const CONSOLE_PERMISSIONS = {
  // Oneself: signing in and out, one's profile and password.
  '/api/admin/login': 'public',
  '/api/admin/logout': EVERY_STAFF,
  '/api/admin/getProfile': EVERY_STAFF,
  '/api/admin/changePassword': EVERY_STAFF,
  // One's own second factor (两步验证, decision 029).
  '/api/admin/getTotpStatus': EVERY_STAFF,
  '/api/admin/startTotp': EVERY_STAFF,
  '/api/admin/confirmTotp': EVERY_STAFF,

  // Review
  '/api/admin/getApplicationList': EXAM_STAFF,
  '/api/admin/getApplicationDetail': EXAM_STAFF,
  '/api/admin/revealApplication': EXAM_STAFF,
  '/api/admin/reviewApplication': EXAM_STAFF,
  '/api/admin/bulkApprove': EXAM_STAFF,
  '/api/admin/getRejectionReasons': EXAM_STAFF,
  '/api/admin/saveRejectionReasons': ADMIN,
  '/api/admin/getStatistics': EXAM_STAFF,
  '/api/admin/exportApplications': EXAM_STAFF,
  '/api/admin/getAppealList': ADMIN,
  '/api/admin/resolveAppeal': ADMIN,

  // The office's settings and content
  '/api/admin/getOfficeSettings': EXAM_STAFF,
  '/api/admin/updateOfficeSettings': ADMIN,
  '/api/admin/updateMenu': ADMIN,
  '/api/admin/updateAgreement': ADMIN,
  '/api/admin/getAttachment': EXAM_STAFF,
  '/api/admin/uploadAttachment': ADMIN,
  '/api/admin/getExamList': EXAM_STAFF,
  '/api/admin/saveExam': ADMIN,
  '/api/admin/previewExamSave': ADMIN,
  '/api/admin/setExamPublished': ADMIN,
  '/api/admin/getExamDocuments': EXAM_STAFF,
  '/api/admin/saveExamDocument': ADMIN,
  '/api/admin/getPositionList': EXAM_STAFF,
  '/api/admin/getUnitList': EXAM_STAFF,
  '/api/admin/savePosition': ADMIN,
  '/api/admin/deletePosition': ADMIN,
  '/api/admin/importPositions': ADMIN,
  '/api/admin/getPositionTemplate': EXAM_STAFF,
  '/api/admin/exportPositions': EXAM_STAFF,
  '/api/admin/getNoticeList': EXAM_STAFF,
  '/api/admin/getNoticeDetail': EXAM_STAFF,
  '/api/admin/saveNotice': ADMIN,
  '/api/admin/setNoticePublished': ADMIN,
  '/api/admin/deleteNotice': ADMIN,

  // Messages
  '/api/admin/previewAnnouncement': ADMIN,
  '/api/admin/sendAnnouncement': ADMIN,
  '/api/admin/getSmsOutbox': ADMIN,
  '/api/admin/retrySms': ADMIN,
  '/api/admin/getNotificationSettings': EXAM_STAFF,
  '/api/admin/saveNotificationSettings': ADMIN,

  // Fees, waivers, close-out
  '/api/admin/getPaymentList': EXAM_STAFF,
  '/api/admin/exportPayments': EXAM_STAFF,
  '/api/admin/refundPayment': ADMIN,
  '/api/admin/getPaymentEvents': EXAM_STAFF,
  '/api/admin/reconcileStatement': ADMIN,
  '/api/admin/applyStatementLine': ADMIN,
  '/api/payment/sandbox/statement': ADMIN,
  '/api/admin/getFeeWaiverList': EXAM_STAFF,
  '/api/admin/getFeeWaiverProof': EXAM_STAFF,
  '/api/admin/reviewFeeWaiver': EXAM_STAFF,
  '/api/admin/getOpeningCheck': ADMIN,
  '/api/admin/applyOpeningCheck': ADMIN,

  // Arrangement and tickets
  '/api/admin/getExamSubjects': ADMIN,
  '/api/admin/saveExamSubject': ADMIN,
  '/api/admin/getExamSites': ADMIN,
  '/api/admin/saveExamSite': ADMIN,
  '/api/admin/saveExamRoom': ADMIN,
  '/api/admin/getExamSiteTemplate': ADMIN,
  '/api/admin/importExamSites': ADMIN,
  '/api/admin/getArrangement': ADMIN,
  '/api/admin/findSeatedCandidates': ADMIN,
  '/api/admin/arrangeSeats': ADMIN,
  '/api/admin/arrangeLateSeats': ADMIN,
  '/api/admin/publishTickets': ADMIN,
  '/api/admin/moveSeat': ADMIN,
  '/api/admin/getRoomSheetsPdf': ADMIN,
  '/api/admin/exportArrangement': ADMIN,
  '/api/admin/verifyTicket': EXAM_STAFF,
  '/api/admin/getDoorCheckExam': EXAM_STAFF,

  // Scores and the stages after them
  '/api/admin/getScoreRules': ADMIN,
  '/api/admin/saveScoreRules': ADMIN,
  '/api/admin/importScores': ADMIN,
  '/api/admin/getScoreTemplate': ADMIN,
  '/api/admin/getScoreRanking': ADMIN,
  '/api/admin/publishScores': ADMIN,
  '/api/admin/recordGiveUp': ADMIN,
  '/api/admin/fillVacancy': ADMIN,
  '/api/admin/getScoreReviewList': ADMIN,
  '/api/admin/answerScoreReview': ADMIN,
  '/api/admin/exportScores': ADMIN,
  '/api/admin/exportInterviewListPdf': ADMIN,
  '/api/admin/getStageBoard': ADMIN,
  '/api/admin/saveStageWeight': ADMIN,
  '/api/admin/recordStageResults': ADMIN,
  '/api/admin/importInterviewScores': ADMIN,
  '/api/admin/getInterviewScoreTemplate': ADMIN,
  '/api/admin/publishStage': ADMIN,

  // Staff accounts (人员管理): the admin's; nobody changes their own role (staff/admin-service.ts).
  '/api/admin/getStaffList': ADMIN,
  '/api/admin/saveStaff': ADMIN,
  '/api/admin/setStaffDisabled': ADMIN,

  // Staff sign-in security (安全管理)
  '/api/admin/getStaffSecurity': SECURITY,
  '/api/admin/unlockStaff': SECURITY,
  '/api/admin/endStaffSessions': SECURITY,
  '/api/admin/resetStaffTotp': SECURITY,

  // The audit log (审计日志). No route changes or deletes a record, for any role.
  '/api/admin/getAuditLog': AUDITOR,
  '/api/admin/exportAuditLog': AUDITOR,
  '/api/admin/getAuditChainState': AUDITOR,

  // An exam's end: its archive (issue 36)
  '/api/admin/archiveExam': ADMIN,
  '/api/admin/getArchiveStatus': ADMIN,
  '/api/admin/getArchive': ADMIN,
} as const satisfies Readonly<Record<string, 'public' | readonly StaffRole[]>>;

export type ConsoleCall = keyof typeof CONSOLE_PERMISSIONS;

/** The row of a route's URL as Fastify registered it, or undefined when it has none. */
export function consolePermission(url: string): 'public' | readonly StaffRole[] | undefined {
  return Object.hasOwn(CONSOLE_PERMISSIONS, url) ? CONSOLE_PERMISSIONS[url as ConsoleCall] : undefined;
}

/** Whether a staff member of this role may call the route. */
export function mayCall(role: StaffRole, call: ConsoleCall): boolean {
  const allowed = CONSOLE_PERMISSIONS[call];
  return allowed !== 'public' && (allowed as readonly StaffRole[]).includes(role);
}
