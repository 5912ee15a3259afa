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
  disabled: number;
  created_at: string;
  updated_at: string;
}

export interface DB {
  office: OfficeTable;
  exam: ExamTable;
  exam_document: ExamDocumentTable;
  captcha: CaptchaTable;
  staff_user: StaffUserTable;
}
