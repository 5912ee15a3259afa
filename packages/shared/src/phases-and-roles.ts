// The exam phases and staff roles, plain data at the bottom of the shared modules: the lifecycle
// (zod-free, for the plain pages) and the zod schemas of exams.ts and staff.ts all read them, and
// none of those is imported back.
export const EXAM_PHASES = ['upcoming', 'registering', 'reviewing', 'confirming', 'closed'] as const;
export type ExamPhase = (typeof EXAM_PHASES)[number];

export const STAFF_ROLES = ['admin', 'reviewer'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
