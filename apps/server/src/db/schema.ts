import type { Generated } from 'kysely';

/**
 * Table shapes as Kysely sees them. Times are ISO-8601 UTC text and flags are 0/1 integers on
 * both SQLite and PostgreSQL, so one query reads the same everywhere.
 */

export interface OfficeTable {
  id: Generated<number>;
  code: string;
  name: string;
  /** JSON: OfficeSettings. */
  settings: string;
  /** JSON: MenuItem[]. */
  menu: string;
  agreement_title: string;
  agreement_content: string;
  agreement_updated_at: string;
  created_at: string;
  updated_at: string;
}

export interface ExamTable {
  id: Generated<number>;
  office_id: number;
  name: string;
  /** 0: draft (hidden), 1: published. */
  published: number;
  registration_start: string;
  registration_end: string;
  review_start: string;
  review_end: string;
  confirmation_start: string;
  confirmation_end: string;
  /** JSON: which form fields the exam asks for and requires. */
  config: string;
  created_at: string;
  updated_at: string;
}

export interface ExamDocumentTable {
  id: Generated<number>;
  office_id: number;
  exam_id: number;
  type: string;
  title: string;
  content: string;
  sort: number;
  created_at: string;
  updated_at: string;
}

export interface CaptchaTable {
  id: string;
  office_id: number;
  answer_hash: string;
  expires_at: string;
  created_at: string;
}

export interface StaffUserTable {
  id: Generated<number>;
  office_id: number;
  username: string;
  password_hash: string;
  name: string;
  role: string;
  /** JSON: unit names a reviewer is limited to; [] means every unit. */
  units: Generated<string>;
  disabled: number;
  created_at: string;
  updated_at: string;
}

export interface CandidateTable {
  id: Generated<number>;
  office_id: number;
  idno_index: string;
  idno_enc: string;
  name: string;
  birthday: string;
  sex: string;
  password_hash: string;
  mobile: string;
  email: string;
  question: string;
  answer_enc: string;
  photo_id: number | null;
  consent_at: string | null;
  created_at: string;
  updated_at: string;
  /** Set while the password is a one-time password staff handed out (appeals): it stops working then. */
  password_expires_at: Generated<string | null>;
}

export interface PhotoTable {
  id: Generated<number>;
  office_id: number;
  candidate_id: number;
  mime: string;
  width: number;
  height: number;
  bytes: number;
  data: Buffer;
  created_at: string;
}

export interface SessionTable {
  id: Generated<number>;
  token_hash: string;
  /** 'candidate' or 'staff': a token of one kind never opens the other's calls. */
  kind: string;
  subject_id: number;
  office_id: number;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export interface PositionTable {
  id: Generated<number>;
  office_id: number;
  exam_id: number;
  code: string;
  name: string;
  unit: string;
  headcount: number;
  description: string;
  /** JSON: PositionRequirements. */
  requirements: string;
  created_at: string;
  updated_at: string;
}

export interface ApplicationTable {
  id: Generated<number>;
  office_id: number;
  exam_id: number;
  candidate_id: number;
  position_id: number | null;
  status: string;
  /** JSON: ApplicationForm. */
  form: string;
  reason: string;
  submitted_at: string | null;
  reviewed_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ApplicationHistoryTable {
  id: Generated<number>;
  application_id: number;
  status: string;
  reason: string;
  actor: string;
  actor_id: number | null;
  at: string;
}

export interface NoticeTable {
  id: Generated<number>;
  office_id: number;
  title: string;
  summary: string;
  content: string;
  /** JSON: { name, url }[]. */
  attachments: string;
  pinned: number;
  published: number;
  published_at: string;
  created_at: string;
  updated_at: string;
}

export interface AttachmentTable {
  id: Generated<number>;
  office_id: number;
  name: string;
  mime: string;
  bytes: number;
  data: Buffer;
  staff_id: number;
  created_at: string;
}

export interface AuditLogTable {
  id: Generated<number>;
  office_id: number;
  staff_id: number;
  staff_name: string;
  action: string;
  target: string;
  detail: string;
  ip: string;
  at: string;
}

export interface AppealTable {
  id: Generated<number>;
  office_id: number;
  name: string;
  idno_index: string;
  idno_enc: string;
  mobile: string;
  description: string;
  /** 'pending', 'reset' or 'rejected'. */
  status: string;
  reason: Generated<string>;
  handled_by: number | null;
  handled_at: string | null;
  created_at: string;
}

export interface DB {
  office: OfficeTable;
  exam: ExamTable;
  exam_document: ExamDocumentTable;
  captcha: CaptchaTable;
  staff_user: StaffUserTable;
  candidate: CandidateTable;
  photo: PhotoTable;
  session: SessionTable;
  position: PositionTable;
  application: ApplicationTable;
  application_history: ApplicationHistoryTable;
  notice: NoticeTable;
  audit_log: AuditLogTable;
  attachment: AttachmentTable;
  appeal: AppealTable;
}
