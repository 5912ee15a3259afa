import { z } from 'zod';

/**
 * An exam's end (issue 36, decision 037): its sealed archive, and how long the personal data of
 * its candidates stays before retention's purge anonymises those who were not hired.
 */
export const ARCHIVE_STATUSES = ['none', 'running', 'ready', 'failed'] as const;
export type ArchiveStatus = (typeof ARCHIVE_STATUSES)[number];

export const ARCHIVE_STATUS_LABEL: Readonly<Record<ArchiveStatus, string>> = {
  none: '未生成',
  running: '生成中',
  ready: '已完成',
  failed: '生成失败',
};

export const archiveStatusSchema = z.object({
  status: z.enum(ARCHIVE_STATUSES),
  /** Percent done (100 once ready). */
  progress: z.number().int().min(0).max(100),
  /** Bytes of the zip; null until ready. */
  size: z.number().int().nullable(),
  sha256: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** Why the last attempt failed (Chinese), when it did. */
  error: z.string(),
  /** Whether the exam may be archived now (its last stage published or its end passed). */
  archivable: z.boolean(),
  /** When the exam ended (its last stage published, or the last date of its schedule). */
  endedAt: z.string().nullable(),
  /** When retention's purge anonymises its candidates who were not hired (null: the exam has not ended). */
  anonymiseAt: z.string().nullable(),
  /** When that purge ran (null: not yet). */
  anonymisedAt: z.string().nullable(),
});
export type ExamArchiveStatus = z.infer<typeof archiveStatusSchema>;

/** How many years after an exam's end its candidates' personal data is kept (office setting `retentionYears`). */
export const DEFAULT_RETENTION_YEARS = 3;
export const retentionYearsSchema = z
  .number({ message: '请填写保存年限' })
  .int({ message: '保存年限须为整数' })
  .min(1, { message: '保存年限至少 1 年' })
  .max(30, { message: '保存年限至多 30 年' });

export const ARCHIVE_NOT_ENDED_TEXT = '该考试尚未结束（最后一个环节未公布，且考试日程未结束），暂不能归档';
export const ARCHIVE_RUNNING_TEXT = '该考试的归档正在生成，请稍候';
export const ARCHIVE_NOT_READY_TEXT = '该考试的归档尚未生成完成';

/**
 * The form fields an anonymised application keeps, for statistics: chosen from lists or numbers.
 * Everything typed freely (school, major, work history, phone, address, custom answers) goes.
 */
export const ANONYMISED_FORM_KEEPS = ['education', 'degree', 'graduationDate', 'workYears', 'politicalStatus', 'pledge'] as const;

/** How long before deleting a dormant account its owner is told (SMS and 我的消息). */
export const DORMANT_NOTICE_DAYS = 30;

/** A name as an anonymised record keeps it: the surname, then *. */
export function anonymousName(name: string): string {
  const first = Array.from(name.trim())[0];
  return first ? `${first}*` : '*';
}
