// The exam phases and staff roles, plain data at the bottom of the shared modules: the lifecycle
// (zod-free, for the plain pages) and the zod schemas of exams.ts and staff.ts all read them, and
// none of those is imported back.
export const EXAM_PHASES = ['upcoming', 'registering', 'reviewing', 'confirming', 'closed'] as const;
export type ExamPhase = (typeof EXAM_PHASES)[number];

/**
 * Separated duties (三权分立, decision 031): `admin` runs the exam and the staff accounts,
 * `reviewer` reviews within their units, `security` holds the staff's sign-in security
 * (policy, second factors, lockouts, sessions) and `auditor` reads the audit log. What each may
 * call is `access/permissions.ts`.
 */
export const STAFF_ROLES = ['admin', 'reviewer', 'security', 'auditor'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
