import { clause, MESSAGE_TEMPLATES, zonedDateTime, type MessageParams } from '@zhikaoyun/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { newSmsKey } from '../modules/messages/sms/repository';

/**
 * The demo's reminder (decision 038): one approved candidate of the confirmation stage has been
 * reminded to confirm before the deadline, with the rows the sweep writes (the reminder's key,
 * the 我的消息 row and the SMS in the outbox), so a fresh `npm start` shows one in 我的消息 and
 * 短信记录 without waiting for a deadline to come within a day.
 */
export async function seedDemoReminder(
  trx: Kysely<DB>,
  r: {
    officeId: number;
    examId: number;
    examName: string;
    applicationId: number;
    candidateId: number;
    mobile: string;
    deadline: string;
    timeZone: string;
    at: string;
  },
): Promise<void> {
  const template = MESSAGE_TEMPLATES.deadline_pay;
  const params: MessageParams = { exam: r.examName, until: zonedDateTime(r.deadline, r.timeZone) };
  const content = template.content(params);
  await trx
    .insertInto('reminder')
    .values({ application_id: r.applicationId, kind: 'deadline_pay', office_id: r.officeId, exam_id: r.examId, sent_at: r.at })
    .execute();
  await trx
    .insertInto('message')
    .values({
      office_id: r.officeId,
      candidate_id: r.candidateId,
      kind: 'deadline_pay',
      application_id: r.applicationId,
      exam_id: r.examId,
      title: template.title(params),
      content,
      read_at: null,
      created_at: r.at,
    })
    .execute();
  await trx
    .insertInto('sms_outbox')
    .values({
      office_id: r.officeId,
      candidate_id: r.candidateId,
      kind: 'deadline_pay',
      mobile: r.mobile,
      params: JSON.stringify({ ...params, exam: clause(params.exam) }),
      text: content,
      idem_key: newSmsKey(),
      status: 'pending',
      next_attempt_at: r.at,
      created_at: r.at,
      sent_at: null,
      claimed_by: null,
      lease_until: null,
    })
    .execute();
}
