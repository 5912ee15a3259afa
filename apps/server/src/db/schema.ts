import type {
  AnnouncementAudience,
  AppealStatus,
  ApplicationStatus,
  HistoryActor,
  LaterEvent,
  LaterStage,
  LaterStatus,
  NotificationKind,
  OrderStatus,
  PaymentProviderName,
  ReminderKind,
  SmsCodePurpose,
  SmsMessageKind,
  SmsStatus,
  StageOutcome,
  WaiverCategory,
  WaiverStatus,
} from '@zhikaoyun/shared';
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
  /** 1: paused by the platform (暂停服务); its rows are kept. */
  disabled: Generated<number>;
  disabled_at: string | null;
}

/** A host name an office is served on (one office per host). */
export interface OfficeHostTable {
  host: string;
  office_id: number;
  created_at: string;
}

/** The platform's operator: signs in apart from every office. */
export interface PlatformOperatorTable {
  id: Generated<number>;
  username: string;
  password_hash: string;
  name: string;
  /** 1 while the password is a one-time one: only changePassword is allowed. */
  must_change_password: Generated<number>;
  /** As staff_user's: when the password was set, and the hashes of the ones before it. */
  password_set_at: string | null;
  password_history: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface PlatformSessionTable {
  id: Generated<number>;
  token_hash: string;
  operator_id: number;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  revoked_at: string | null;
}

/** The operator's sign-in captchas (an office's are in `captcha`, which belongs to an office). */
export interface PlatformCaptchaTable {
  id: string;
  answer_hash: string;
  expires_at: string;
  created_at: string;
}

/** What the platform's operators did (creating offices, their first admins, pausing them). */
export interface PlatformAuditTable {
  id: Generated<number>;
  operator_id: number;
  operator_name: string;
  action: string;
  target: string;
  detail: string;
  ip: string;
  at: string;
  /** Its place in the platform's audit chain (migration 0030); null only on a row that is not part of it. */
  seq: number | null;
  /** HMAC over the previous record's MAC and this record (modules/platform/audit/chain.ts). */
  mac: string | null;
  /** The id of the data key that made `mac`. */
  mac_key: string | null;
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
  /** Fen; 0: no fee. */
  fee: Generated<number>;
  /** Applicants per post a position needs to open; 0: no check. */
  opening_ratio: Generated<number>;
  /** JSON: WaiverCategory[]. */
  waiver_categories: Generated<string>;
  switch_start: Generated<string | null>;
  switch_end: Generated<string | null>;
  /** Two digits: the exam part of a ticket number. */
  exam_code: Generated<string>;
  /** Ticket number template: {YY} {EXAM} {SITE} {ROOM} {SEAT}. */
  ticket_template: Generated<string>;
  /** 考生须知, printed on the ticket. */
  exam_rules: Generated<string>;
  print_start: Generated<string | null>;
  print_end: Generated<string | null>;
  tickets_published_at: Generated<string | null>;
  /** The seed of the last arrangement (also in the audit log). */
  arrangement_seed: Generated<string | null>;
  /** 1: candidates choose the city of their exam site. */
  site_city_choice: Generated<number>;
  /** JSON: ReminderKind[], the reminders staff turned on for the exam (migration 0033). */
  reminder_kinds: Generated<string>;
  /** When retention's purge anonymised the exam's candidates who were not hired (migration 0035). */
  anonymised_at: Generated<string | null>;
}

/** Identity checks of a candidate (migration 0032, decision 034). */
export interface IdentityCheckTable {
  id: Generated<number>;
  office_id: number;
  candidate_id: number;
  kind: 'real_name' | 'face';
  status: 'pending' | 'passed' | 'failed';
  exam_id: number | null;
  provider: string;
  provider_ref: string | null;
  token_hash: string | null;
  reason: Generated<string>;
  attempts: Generated<number>;
  next_at: string | null;
  created_at: string;
  checked_at: string | null;
}

export interface ExamSubjectTable {
  id: Generated<number>;
  office_id: number;
  exam_id: number;
  name: string;
  start_at: string;
  end_at: string;
  created_at: string;
  updated_at: string;
}

export interface PositionSubjectTable {
  position_id: number;
  subject_id: number;
}

export interface ExamSiteTable {
  id: Generated<number>;
  office_id: number;
  exam_id: number;
  code: string;
  name: string;
  address: string;
  city: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface ExamRoomTable {
  id: Generated<number>;
  office_id: number;
  exam_id: number;
  site_id: number;
  code: string;
  seats: number;
}

export interface ExamSeatTable {
  id: Generated<number>;
  office_id: number;
  exam_id: number;
  sitting: string;
  subject_id: number;
  application_id: number;
  site_id: number;
  room_id: number;
  seat: number;
}

/** One admitted ticket at one paper's door check (subject_id 0: no paper of theirs that day). */
export interface TicketCheckInTable {
  id: Generated<number>;
  office_id: number;
  exam_id: number;
  application_id: number;
  ticket_no: string;
  subject_id: number;
  first_at: string;
  last_at: string;
  staff_id: number;
  count: Generated<number>;
}

export interface AdmissionTicketTable {
  application_id: number;
  office_id: number;
  exam_id: number;
  ticket_no: string;
  site_id: number;
  room_id: number;
  seat: number;
  updated_at: string;
  /** The first download of the ticket's PDF (migration 0033); null: never downloaded. */
  downloaded_at?: string | null;
}

/** Score rules of an exam. Points in hundredths, ratios in thousandths (see migration 0015). */
export interface ScoreRuleTable {
  exam_id: number;
  office_id: number;
  pass_line: number;
  interview_ratio: number;
  /** JSON: InterviewRatioRow[] (ratio as a plain number), or null. */
  interview_ratio_table: string | null;
  bonus_enabled: number;
  query_start: string | null;
  published_at: string | null;
  imported_at: string | null;
  /** 成绩复核 window (see migration 0017); null: none offered. */
  review_start: Generated<string | null>;
  review_end: Generated<string | null>;
  /** Percent of the combined score the interview counts for. */
  interview_weight: Generated<number>;
  updated_at: string;
}

export interface ScoreSubjectTable {
  subject_id: number;
  office_id: number;
  exam_id: number;
  /** Hundredths of a point. */
  full_marks: number;
  /** Thousandths. */
  weight: number;
  /** Hundredths; null: no line for this subject. */
  pass_line: number | null;
}

export type ScoreMarkKind = 'score' | 'absent' | 'void';

export interface ScoreTotalTable {
  application_id: number;
  office_id: number;
  exam_id: number;
  position_id: number;
  ticket_no: string;
  status: ScoreMarkKind;
  /** Hundredths. */
  bonus: number;
  /** Hundredths; null when absent or void. */
  total: number | null;
  qualified: number;
  /** 放弃: recorded by staff; the candidate leaves the list. */
  gave_up_at: Generated<string | null>;
  gave_up_reason: Generated<string>;
  /** 递补: added to the list after someone gave up. */
  filled_at: Generated<string | null>;
  updated_at: string;
}

export interface ScoreMarkTable {
  application_id: number;
  subject_id: number;
  exam_id: number;
  mark: ScoreMarkKind;
  /** Hundredths; null unless mark is 'score'. */
  score: number | null;
}

export type ScoreReviewStatus = 'pending' | 'unchanged' | 'corrected';

/** 成绩复核 requests: one per ticket and subject (0: the scores as a whole). */
export interface ScoreReviewTable {
  id: Generated<number>;
  office_id: number;
  exam_id: number;
  application_id: number;
  subject_id: number;
  reason: string;
  status: Generated<ScoreReviewStatus>;
  /** The subject a correction changed, and its score before and after (hundredths). */
  corrected_subject_id: Generated<number | null>;
  old_score: Generated<number | null>;
  new_score: Generated<number | null>;
  answer: Generated<string>;
  answered_by: Generated<number | null>;
  answered_at: Generated<string | null>;
  created_at: string;
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

/** Whose second factor a row is: an office's staff member or the platform's operator. */
export type SecondFactorKind = 'staff' | 'operator';

/** A person's TOTP second factor (migration 0027). */
export interface SecondFactorTable {
  kind: SecondFactorKind;
  subject_id: number;
  /** The confirmed secret, encrypted under the data key; null until confirmed. */
  secret_enc: string | null;
  /** A secret started (startTotp) and not confirmed yet, encrypted. */
  pending_enc: string | null;
  enabled_at: string | null;
  /** The last RFC 6238 time step a code was accepted for: no code of it or before is accepted again. */
  last_step: number | null;
  updated_at: string;
}

/** A single-use recovery code: its argon2id hash. */
export interface RecoveryCodeTable {
  id: Generated<number>;
  kind: SecondFactorKind;
  subject_id: number;
  code_hash: string;
  created_at: string;
  used_at: string | null;
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
  /** JSON: the unit names a reviewer may see and review; [] means none (admins see every unit). */
  units: Generated<string>;
  disabled: number;
  /** 1 while the password is a one-time one (an office's first admin): only changePassword is allowed. */
  must_change_password: Generated<number>;
  /** When the password was set (it expires STAFF_PASSWORD_MAX_DAYS later); null: at created_at. */
  password_set_at: string | null;
  /** JSON: argon2id hashes of the passwords before this one, newest first (a new one may not repeat them). */
  password_history: Generated<string>;
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
  /** Name masked, ID number, phone, e-mail and photo removed by retention's purge (migration 0035). */
  anonymised_at: Generated<string | null>;
  /** When a dormant account was told of its deletion (30 days ahead). */
  dormant_notice_at: Generated<string | null>;
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
  /** Set when close-out cancelled the position (its candidates may switch or take a refund). */
  cancelled_at: Generated<string | null>;
}

export interface ApplicationTable {
  id: Generated<number>;
  office_id: number;
  exam_id: number;
  candidate_id: number;
  position_id: number | null;
  /** Written only by modules/registration/applications/lifecycle.ts, as the machine in packages/shared allows. */
  status: ApplicationStatus;
  /** JSON: ApplicationForm. */
  form: string;
  /** Raised by every save of the form: a save or submit based on another version is refused. */
  version: Generated<number>;
  reason: string;
  submitted_at: string | null;
  reviewed_at: string | null;
  created_at: string;
  updated_at: string;
  /** 考点城市 the candidate chose (null: none; seated anywhere). */
  site_city: Generated<string | null>;
  /** 报名号, given at the first submit (null before it); unique within the exam. */
  application_no: Generated<string | null>;
}

/** The last 报名号 running number given in each exam. */
export interface ApplicationNoSeqTable {
  exam_id: number;
  last: number;
}

export interface ApplicationHistoryTable {
  id: Generated<number>;
  application_id: number;
  status: ApplicationStatus;
  reason: string;
  actor: HistoryActor;
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
  /** The exam the notice belongs to; null: a general notice of the office. */
  exam_id: Generated<number | null>;
}

export interface AttachmentTable {
  id: Generated<number>;
  /** The id in its URL: 128 random bits, base64url. */
  public_id: string;
  office_id: number;
  name: string;
  mime: string;
  bytes: number;
  data: Buffer;
  staff_id: number;
  created_at: string;
}

/** Which published-or-not thing links to an attachment; an attachment nothing links to is deleted. */
export interface AttachmentRefTable {
  attachment_id: number;
  office_id: number;
  /** 'notice' (owner_id: notice.id), 'document' (exam_document.id) or 'agreement' (office.id). */
  owner_type: string;
  owner_id: number;
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
  /** Its place in the office's audit chain (migration 0030); null only on a row that is not part of it. */
  seq: number | null;
  /** HMAC over the previous record's MAC and this record (modules/platform/audit/chain.ts). */
  mac: string | null;
  /** The id of the data key that made `mac`. */
  mac_key: string | null;
}

/** The head of each audit chain (`office:<id>`, `platform`): appends update it first, one at a time. */
export interface AuditChainTable {
  chain: string;
  /** The last record's place (0: none yet). */
  seq: number;
  /** The last record's MAC; null while rows written before the chain wait to be sealed. */
  mac: string | null;
  /** Records up to here were removed by an audited purge (npm run purge-audit)… */
  floor_seq: Generated<number>;
  /** …and this was the MAC of the last of them, which the next record's MAC covers. */
  floor_mac: Generated<string>;
  /** A key rotation's progress: records up to here are re-sealed under the new key… */
  rekey_seq: number | null;
  /** …and this was the MAC (under the old key) of that last one, which the next record's MAC covers. */
  rekey_mac: string | null;
  /** How many records were written before the chain existed (sealed at the first start after migration 0030). */
  legacy_seq: Generated<number>;
  sealed_at: string | null;
}

/** What the console last verified of a chain (JSON), with a MAC so that nobody moves it forward. */
export interface AuditCheckTable {
  chain: string;
  state: string;
  tag: string;
}

/** Facts of the deployment recorded once (the crypto suite the data is written under). */
export interface DeploymentSettingTable {
  name: string;
  value: string;
  set_at: string;
}

export interface AppealTable {
  id: Generated<number>;
  office_id: number;
  name: string;
  idno_index: string;
  idno_enc: string;
  mobile: string;
  description: string;
  status: AppealStatus;
  reason: Generated<string>;
  handled_by: number | null;
  handled_at: string | null;
  created_at: string;
}

/** The candidate's inbox: one row per message, written in the transaction of the step that causes it. */
export interface MessageTable {
  id: Generated<number>;
  office_id: number;
  candidate_id: number;
  kind: NotificationKind;
  application_id: number | null;
  exam_id: number | null;
  title: string;
  content: string;
  read_at: string | null;
  created_at: string;
}

/** One reminder sent (migration 0033): its key is what makes a second one impossible. */
export interface ReminderTable {
  application_id: number;
  kind: ReminderKind;
  office_id: number;
  exam_id: number;
  sent_at: string;
}

/** SMS waiting for, in or past delivery (modules/messages/sms/worker.ts is the only one that sends). */
export interface SmsOutboxTable {
  id: Generated<number>;
  office_id: number;
  candidate_id: number | null;
  kind: SmsMessageKind;
  mobile: string;
  /** JSON: MessageParams. */
  params: string;
  text: string;
  idem_key: string;
  status: SmsStatus;
  attempts: Generated<number>;
  next_attempt_at: string;
  claimed_by: string | null;
  lease_until: string | null;
  last_error: Generated<string>;
  provider: Generated<string>;
  provider_id: Generated<string>;
  created_at: string;
  sent_at: string | null;
}

/** What the `log` provider was asked to send; the unique key is what makes it refuse a repeat. */
export interface SmsLogTable {
  id: Generated<number>;
  office_id: number;
  idem_key: string;
  kind: string;
  mobile: string;
  text: string;
  at: string;
}

export interface SmsCodeTable {
  id: Generated<number>;
  office_id: number;
  mobile: string;
  purpose: SmsCodePurpose;
  code_hash: string;
  ip: string;
  tries: Generated<number>;
  used_at: string | null;
  expires_at: string;
  created_at: string;
}

export interface ReviewSettingTable {
  office_id: number;
  /** JSON: string[], the office's preset rejection reasons. */
  rejection_reasons: string;
  updated_at: string;
}

export interface NotificationSettingTable {
  office_id: number;
  /** JSON: NotificationSettings. */
  settings: string;
  updated_at: string;
}

export interface AnnouncementTable {
  id: Generated<number>;
  office_id: number;
  exam_id: number;
  audience: AnnouncementAudience;
  title: string;
  content: string;
  sms: number;
  recipients: number;
  staff_id: number;
  created_at: string;
}

/**
 * Counts kept as data by triggers (migration 0013), in the transaction of the change they count:
 * read them, never write them. position_id 0: an application without a position.
 */
export interface ApplicationTallyTable {
  office_id: number;
  exam_id: number;
  position_id: number;
  status: ApplicationStatus;
  n: number;
}

/** As application_tally, per quarter hour (UTC, 'YYYY-MM-DDTHH:' and the minute 0/15/30/45) of submission. */
export interface ApplicationDayTallyTable {
  office_id: number;
  exam_id: number;
  bucket: string;
  status: ApplicationStatus;
  n: number;
}

export interface AuditTallyTable {
  office_id: number;
  n: number;
}

export interface PaymentOrderTable {
  id: Generated<number>;
  office_id: number;
  exam_id: number;
  application_id: number;
  order_no: string;
  provider: PaymentProviderName;
  /** Fen, fixed from the exam's fee when the order was made. */
  amount: number;
  status: OrderStatus;
  pay_url: string;
  trade_no: string | null;
  created_at: string;
  expires_at: string;
  /** The provider's time of payment (the deadline is judged on it). */
  paid_at: string | null;
  /** When we committed the payment. */
  recorded_at: string | null;
  closed_at: string | null;
  /** Made once when the refund is decided; the provider deduplicates on it. */
  refund_no: string | null;
  refund_reason: Generated<string>;
  refunded_at: string | null;
  note: Generated<string>;
}

export interface PaymentEventTable {
  id: Generated<number>;
  office_id: number | null;
  provider: string;
  order_no: string;
  kind: string;
  detail: string;
  at: string;
}

export interface FeeWaiverTable {
  id: Generated<number>;
  office_id: number;
  exam_id: number;
  application_id: number;
  category: WaiverCategory;
  status: WaiverStatus;
  reason: Generated<string>;
  proof_mime: string;
  proof: Buffer;
  reviewed_by: number | null;
  reviewed_at: string | null;
  created_at: string;
}

/** The sandbox provider's side of a trade (what a real provider keeps). */
export interface SandboxTradeTable {
  order_no: string;
  trade_no: string;
  amount: number;
  subject: string;
  /** 'open', 'paid', 'closed'. */
  status: string;
  notify_url: string;
  return_url: string;
  created_at: string;
  expires_at: string;
  paid_at: string | null;
  notify_attempts: Generated<number>;
  next_notify_at: string | null;
  acked_at: string | null;
  refunded: Generated<number>;
}

export interface SandboxRefundTable {
  refund_no: string;
  order_no: string;
  amount: number;
  at: string;
}

export interface StageResultTable {
  application_id: number;
  stage: LaterStage;
  office_id: number;
  exam_id: number;
  outcome: StageOutcome;
  /** Hundredths (the interview's score); null otherwise. */
  score: number | null;
  updated_at: string;
}

/** A step of the machine after confirmation, as its writer (modules/stages/lifecycle.ts) records it. */
export interface LaterHistoryTable {
  id: Generated<number>;
  application_id: number;
  event: LaterEvent;
  from_state: LaterStatus;
  to_state: LaterStatus;
  reason: string;
  /** The staff member who fired it. */
  actor_id: number | null;
  at: string;
}

export interface StagePublicationTable {
  exam_id: number;
  stage: LaterStage;
  published_at: string;
}

/** An exam's sealed archive (migration 0035): the job's state, then the zip's size and SHA-256. */
export interface ExamArchiveTable {
  exam_id: number;
  office_id: number;
  status: 'running' | 'ready' | 'failed';
  progress: Generated<number>;
  /** Bytes (a bigint column: PostgreSQL answers it as a string). */
  size: number | string | null;
  sha256: string | null;
  /** The zip's file name inside ARCHIVE_DIR. */
  file: string | null;
  error: Generated<string>;
  staff_id: number;
  started_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** Work run once a day across all processes (migration 0038): who holds today's run, which day is done. */
export interface DailyJobTable {
  name: string;
  holder: string | null;
  lease_until: string | null;
  /** The day (YYYY-MM-DD, UTC) the current or last lease was taken for. */
  run_day: string | null;
  /** The last day whose run finished. */
  done_day: string | null;
  finished_at: string | null;
}

export interface DB {
  daily_job: DailyJobTable;
  exam_archive: ExamArchiveTable;
  office: OfficeTable;
  office_host: OfficeHostTable;
  platform_operator: PlatformOperatorTable;
  platform_session: PlatformSessionTable;
  platform_audit: PlatformAuditTable;
  platform_captcha: PlatformCaptchaTable;
  exam: ExamTable;
  exam_document: ExamDocumentTable;
  captcha: CaptchaTable;
  staff_user: StaffUserTable;
  second_factor: SecondFactorTable;
  recovery_code: RecoveryCodeTable;
  candidate: CandidateTable;
  photo: PhotoTable;
  session: SessionTable;
  position: PositionTable;
  application: ApplicationTable;
  application_history: ApplicationHistoryTable;
  application_no_seq: ApplicationNoSeqTable;
  notice: NoticeTable;
  audit_log: AuditLogTable;
  audit_chain: AuditChainTable;
  audit_check: AuditCheckTable;
  deployment_setting: DeploymentSettingTable;
  identity_check: IdentityCheckTable;
  attachment: AttachmentTable;
  attachment_ref: AttachmentRefTable;
  appeal: AppealTable;
  message: MessageTable;
  reminder: ReminderTable;
  sms_outbox: SmsOutboxTable;
  sms_log: SmsLogTable;
  sms_code: SmsCodeTable;
  notification_setting: NotificationSettingTable;
  review_setting: ReviewSettingTable;
  announcement: AnnouncementTable;
  application_tally: ApplicationTallyTable;
  application_day_tally: ApplicationDayTallyTable;
  audit_tally: AuditTallyTable;
  payment_order: PaymentOrderTable;
  payment_event: PaymentEventTable;
  fee_waiver: FeeWaiverTable;
  sandbox_trade: SandboxTradeTable;
  sandbox_refund: SandboxRefundTable;
  exam_subject: ExamSubjectTable;
  position_subject: PositionSubjectTable;
  exam_site: ExamSiteTable;
  exam_room: ExamRoomTable;
  exam_seat: ExamSeatTable;
  admission_ticket: AdmissionTicketTable;
  ticket_check_in: TicketCheckInTable;
  score_rule: ScoreRuleTable;
  score_subject: ScoreSubjectTable;
  score_total: ScoreTotalTable;
  score_mark: ScoreMarkTable;
  score_review: ScoreReviewTable;
  stage_result: StageResultTable;
  stage_publication: StagePublicationTable;
  later_history: LaterHistoryTable;
}
