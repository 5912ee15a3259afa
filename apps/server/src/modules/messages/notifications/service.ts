import {
  AUDIENCE_RULES,
  clause,
  DEFAULT_NOTIFICATION_SETTINGS,
  ErrorCode,
  EVENT_NOTIFICATIONS,
  MESSAGE_TEMPLATES,
  maskMobile,
  notificationSettingsSchema,
  SMS_KINDS,
  SMS_KIND_LABEL,
  SMS_STATUSES,
  zonedDateTime,
  type AnnouncementAudience,
  type AnnouncementPreview,
  type AnnouncementResult,
  type MessageList,
  type MessageParams,
  type NotificationKind,
  type NotificationSettings,
  type OutboxList,
  type SmsKind,
  type SmsStatus,
} from '@zhikaoyun/shared';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { DB } from '../../../db/schema';
import { AppError, notFound } from '../../../lib/app-error';
import { nowIso } from '../../../lib/clock';
import type { StaffPrincipal } from '../../../plugins/auth';
import type { TransitionHook } from '../../registration/applications/lifecycle';
import type { AuditActor, AuditService } from '../../platform/audit/service';
import type { ExamLookup } from '../../content/exams/lookup';
import { officeAdminScope } from '../../access/scope';
import type { SmsRepository } from '../sms/repository';
import type { AudienceFilter, NotificationsRepository } from './repository';
import { officeTimeZoneOf as timeZoneOf } from '../../../lib/office-time-zone';

/** Settings as stored: kinds added since are filled in from the defaults. */
const storedSettingsSchema = z.object({
  sms: z.record(z.string(), z.boolean()).default({}),
  phoneVerification: z.boolean().default(false),
});

export function parseSettings(text: string | null | undefined): NotificationSettings {
  if (!text) return DEFAULT_NOTIFICATION_SETTINGS;
  try {
    const parsed = storedSettingsSchema.safeParse(JSON.parse(text));
    if (!parsed.success) return DEFAULT_NOTIFICATION_SETTINGS;
    const sms = { ...DEFAULT_NOTIFICATION_SETTINGS.sms };
    for (const k of SMS_KINDS) {
      const v = parsed.data.sms[k];
      if (v !== undefined) sms[k] = v;
    }
    return { sms, phoneVerification: parsed.data.phoneVerification };
  } catch {
    return DEFAULT_NOTIFICATION_SETTINGS;
  }
}

/**
 * The parameters a provider's registered template receives: the detail as a clause, since the
 * template goes on after it as ours do (no 「…重新提交。。」 in the SMS either).
 */
const smsParamsOf = (p: MessageParams): MessageParams => (p.detail === undefined ? p : { ...p, detail: clause(p.detail) });

const isSmsKind = (kind: NotificationKind): kind is SmsKind => (SMS_KINDS as readonly string[]).includes(kind);

/**
 * A message of a step that is not a status change of its own (a waiver refused, a position
 * cancelled, tickets published), written by that step's service in the step's transaction.
 */
export interface StepMessage {
  officeId: number;
  kind: SmsKind;
  /** A reason, a decision or a position, as the template of the kind names it. */
  detail?: string | undefined;
  /** A closing clause for this audience (see MessageParams.note). */
  note?: string | undefined;
  /** A deadline (`to`) or a window (`from` … `to`), as instants: written in the office's wall clock. */
  until?: { from?: string | undefined; to: string } | undefined;
  /** When the step happened (the message's time). */
  at: string;
}

export interface NotificationsDeps {
  repo: NotificationsRepository;
  sms: SmsRepository;
  audit: AuditService;
  exams: ExamLookup;
  /** Something was queued for SMS: the worker of this process may look at once. */
  queued: () => void;
}

/**
 * The candidate's inbox and what feeds it: the step of the lifecycle (through `onTransition`,
 * inside the step's transaction), staff announcements, and the SMS that go with them.
 */
export function createNotificationsService({ repo, sms, audit, queued, exams }: NotificationsDeps) {
  /** Writes one message (and its SMS when the office sends this kind by SMS) in `trx`. */
  async function notify(
    trx: Kysely<DB>,
    m: {
      officeId: number;
      candidateId: number;
      kind: NotificationKind;
      applicationId: number | null;
      examId: number | null;
      params: MessageParams;
      mobile: string;
      smsWanted: boolean;
      at: string;
    },
  ): Promise<void> {
    const template = MESSAGE_TEMPLATES[m.kind];
    const content = template.content(m.params);
    await repo.insertMessage(trx, {
      office_id: m.officeId,
      candidate_id: m.candidateId,
      kind: m.kind,
      application_id: m.applicationId,
      exam_id: m.examId,
      title: template.title(m.params),
      content,
      created_at: m.at,
    });
    if (m.smsWanted && m.mobile !== '') {
      await sms.enqueue(trx, {
        office_id: m.officeId,
        candidate_id: m.candidateId,
        kind: m.kind,
        mobile: m.mobile,
        params: JSON.stringify(smsParamsOf(m.params)),
        text: content,
        at: m.at,
      });
      queued();
    }
  }

  function untilText(until: StepMessage['until'], timeZone: string): string | undefined {
    if (!until) return undefined;
    const to = zonedDateTime(until.to, timeZone);
    return until.from ? `${zonedDateTime(until.from, timeZone)} 至 ${to}` : to;
  }

  /** One application's message (and its SMS when the office sends the kind by SMS), in the step's transaction. */
  async function toApplication(
    trx: Kysely<DB>,
    m: {
      officeId: number;
      applicationId: number;
      kind: NotificationKind;
      params: Partial<MessageParams>;
      until?: StepMessage['until'];
      at: string;
    },
  ): Promise<void> {
    const r = await repo.recipient(trx, m.officeId, m.applicationId);
    if (!r) return;
    const settings = parseSettings(r.settings);
    const until = untilText(m.until, timeZoneOf(r.office_settings));
    await notify(trx, {
      officeId: m.officeId,
      candidateId: r.candidate_id,
      kind: m.kind,
      applicationId: m.applicationId,
      examId: r.exam_id,
      params: { exam: r.exam_name, ...(until ? { until } : {}), ...m.params },
      mobile: r.mobile,
      smsWanted: isSmsKind(m.kind) && settings.sms[m.kind],
      at: m.at,
    });
  }

  /** The lifecycle's hook: each step that concerns the candidate leaves its message, or the step fails. */
  const onTransition: TransitionHook = async (trx, fact) => {
    const rule = EVENT_NOTIFICATIONS[fact.event];
    if (!rule) return;
    const detail = rule.detail ? rule.detail(fact.reason) : fact.reason;
    await toApplication(trx, {
      officeId: fact.officeId,
      applicationId: fact.application.id,
      kind: rule.kind,
      params: { ...(detail ? { detail } : {}), ...fact.messageParams },
      at: fact.at,
    });
  };

  function audienceOf(officeId: number, examId: number, audience: AnnouncementAudience): AudienceFilter {
    if (audience === 'all') return { officeId, examId, statuses: 'all' };
    const rule = AUDIENCE_RULES[audience];
    return { officeId, examId, statuses: rule.statuses, ticket: rule.ticket };
  }

  async function examName(officeId: number, examId: number): Promise<string> {
    return (await exams.require(officeId, examId)).name;
  }

  return {
    onTransition,
    notify,

    /** A step's message to one application's candidate (a waiver refused), in the step's transaction. */
    stepToApplication(trx: Kysely<DB>, m: StepMessage & { applicationId: number }): Promise<void> {
      return toApplication(trx, {
        officeId: m.officeId,
        applicationId: m.applicationId,
        kind: m.kind,
        params: m.detail ? { detail: m.detail } : {},
        until: m.until,
        at: m.at,
      });
    },

    /**
     * A step's message to many applications of an exam at once (tickets published, a position
     * cancelled), in the step's transaction, with an SMS each when the office sends the kind by SMS.
     */
    async stepToAudience(
      trx: Kysely<DB>,
      m: StepMessage & { examId: number; audience: Omit<AudienceFilter, 'officeId' | 'examId'> },
    ): Promise<{ recipients: number; sms: number }> {
      const exam = await exams.require(m.officeId, m.examId, trx);
      const ctx = await repo.officeContext(trx, m.officeId);
      if (!ctx) throw notFound('office');
      const until = untilText(m.until, timeZoneOf(ctx.office_settings));
      const params: MessageParams = {
        exam: exam.name,
        ...(m.detail ? { detail: m.detail } : {}),
        ...(m.note ? { note: m.note } : {}),
        ...(until ? { until } : {}),
      };
      const template = MESSAGE_TEMPLATES[m.kind];
      const content = template.content(params);
      const r = await repo.fanOut(
        trx,
        { ...m.audience, officeId: m.officeId, examId: m.examId },
        { kind: m.kind, title: template.title(params), content, at: m.at },
        parseSettings(ctx.settings).sms[m.kind] ? { params: JSON.stringify(smsParamsOf(params)), text: content } : null,
      );
      if (r.sms > 0) queued();
      return r;
    },

    async page(officeId: number, candidateId: number, page: number, pageSize: number): Promise<MessageList> {
      const { rows, total, unread } = await repo.page(officeId, candidateId, (page - 1) * pageSize, pageSize);
      return {
        list: rows.map((r) => ({ id: r.id, title: r.title, content: r.content, createdAt: r.created_at, read: r.read_at !== null })),
        total,
        unread,
      };
    },

    unread: (officeId: number, candidateId: number) => repo.unread(officeId, candidateId),

    /** Marks one message, those 我的消息 has shown (others' ids among them change nothing), or all. */
    async read(officeId: number, candidateId: number, id: number | readonly number[] | 'all'): Promise<{ unread: number }> {
      const changed = await repo.markRead(officeId, candidateId, id, nowIso());
      // Someone else's message (or none) is not found, whatever its id; reading one twice is fine.
      if (typeof id === 'number' && changed === 0 && !(await repo.messageExists(officeId, candidateId, id))) {
        throw notFound('message');
      }
      return { unread: await repo.unread(officeId, candidateId) };
    },

    async settings(officeId: number): Promise<NotificationSettings> {
      return parseSettings(await repo.settings(officeId));
    },

    async saveSettings(actor: AuditActor, input: NotificationSettings, ip: string): Promise<NotificationSettings> {
      const settings = notificationSettingsSchema.parse(input);
      const on = SMS_KINDS.filter((k) => settings.sms[k]).map((k) => SMS_KIND_LABEL[k]);
      await repo.commit(async (trx) => {
        await repo.saveSettings(trx, actor.officeId, JSON.stringify(settings), nowIso());
        await audit.record(
          actor,
          '修改消息设置',
          `office:${actor.officeId}`,
          `短信发送：${on.join('、') || '无'}；手机验证：${settings.phoneVerification ? '开启' : '关闭'}`,
          ip,
          trx,
        );
      });
      return settings;
    },

    async preview(officeId: number, examId: number, audience: AnnouncementAudience): Promise<AnnouncementPreview> {
      await examName(officeId, examId);
      return repo.countAudience(audienceOf(officeId, examId, audience));
    },

    /** One message per application of the audience (and an SMS each when asked), in one transaction. */
    async announce(
      actor: AuditActor & { ip: string },
      input: { examId: number; audience: AnnouncementAudience; title: string; content: string; sms: boolean },
    ): Promise<AnnouncementResult> {
      const exam = await examName(actor.officeId, input.examId);
      const at = nowIso();
      const params: MessageParams = { exam, title: input.title, content: input.content };
      const text = MESSAGE_TEMPLATES.announcement.content(params);
      const result = await repo.commit(async (trx) => {
        const r = await repo.fanOut(
          trx,
          audienceOf(actor.officeId, input.examId, input.audience),
          { kind: 'announcement', title: input.title, content: input.content, at },
          input.sms ? { params: JSON.stringify(params), text: `${input.title}：${text}` } : null,
        );
        const id = await repo.insertAnnouncement(trx, {
          office_id: actor.officeId,
          exam_id: input.examId,
          audience: input.audience,
          title: input.title,
          content: input.content,
          sms: input.sms ? 1 : 0,
          recipients: r.recipients,
          staff_id: actor.id,
          created_at: at,
        });
        await audit.record(
          actor,
          '发送考务通知',
          `announcement:${id}`,
          `${exam}：${input.title}（${input.audience}，${r.recipients} 人${input.sms ? `，短信 ${r.sms} 条` : ''}）`,
          actor.ip,
          trx,
        );
        return r;
      });
      if (result.sms > 0) queued();
      return result;
    },

    /** The office's SMS with their texts: office-wide, so for its admins only. */
    async outbox(staff: StaffPrincipal, status: SmsStatus | undefined, page: number, pageSize: number): Promise<OutboxList> {
      const { officeId } = officeAdminScope(staff);
      const { rows, total, counts } = await sms.page(officeId, status, (page - 1) * pageSize, pageSize);
      const byStatus = Object.fromEntries(SMS_STATUSES.map((s) => [s, counts.find((c) => c.status === s)?.n ?? 0])) as Record<
        SmsStatus,
        number
      >;
      return {
        list: rows.map((r) => ({
          id: r.id,
          kind: r.kind,
          mobile: maskMobile(r.mobile),
          // A verification code is nobody's business but its owner's, staff included.
          text: r.kind === 'verification_code' ? '（验证码短信，内容不显示）' : r.text,
          status: r.status,
          attempts: r.attempts,
          lastError: r.last_error,
          provider: r.provider,
          createdAt: r.created_at,
          sentAt: r.sent_at,
          nextAttemptAt: r.next_attempt_at,
        })),
        total,
        counts: byStatus,
      };
    },

    async retry(actor: AuditActor & { ip: string }, id: number): Promise<void> {
      const row = await sms.findForOffice(actor.officeId, id);
      if (!row) throw notFound('sms');
      if (row.status !== 'failed') throw new AppError(ErrorCode.Validation, '只有发送失败的短信可以重新发送');
      if (row.kind === 'verification_code') throw new AppError(ErrorCode.Validation, '验证码短信已过期，请考生重新获取');
      await sms.commit(async (trx) => {
        if (!(await sms.retry(trx, actor.officeId, id, nowIso())))
          throw new AppError(ErrorCode.Validation, '只有发送失败的短信可以重新发送');
        await audit.record(actor, '重发短信', `sms:${id}`, SMS_KIND_LABEL[row.kind], actor.ip, trx);
      });
      queued();
    },
  };
}
export type NotificationsService = ReturnType<typeof createNotificationsService>;
