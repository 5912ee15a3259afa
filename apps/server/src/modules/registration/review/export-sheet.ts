import {
  APPLICATION_STATUS_LABEL,
  FORM_FIELD_LABEL,
  maskIdno,
  maskMobile,
  PROFILE_FIELDS,
  type FormField,
  zonedDateTimeSeconds,
} from '@zhikaoyun/shared';
import type { Writable } from 'node:stream';
import type { Db } from '../../../db/database';
import { createDataCipher, type DataCipher } from '../../../lib/crypto';
import type { CryptoSuite } from '../../../lib/crypto-suite';
import { writeSheet, type SheetColumn } from '../../../lib/xlsx-stream';
import { parseForm } from '../applications/service';
import { createReviewRepository, type ReviewRecord } from './repository';
import type { ApplicationScope } from '../../access/scope';

// The person's fields of the form, as columns (the free-text work history stays out of the sheet).
const EXPORT_FORM_FIELDS: FormField[] = PROFILE_FIELDS.filter((f) => f !== 'workExperience');
const EXPORT_COLUMNS: SheetColumn[] = [
  { header: '报名号', key: 'applicationNo', width: 14 },
  { header: '姓名', key: 'name', width: 10 },
  { header: '性别', key: 'sex', width: 6 },
  { header: '出生日期', key: 'birthday', width: 12 },
  { header: '身份证号', key: 'idno', width: 22 },
  { header: '手机号码', key: 'mobile', width: 14 },
  { header: '岗位代码', key: 'code', width: 12 },
  { header: '岗位名称', key: 'position', width: 18 },
  { header: '招聘单位', key: 'unit', width: 26 },
  ...EXPORT_FORM_FIELDS.map((f) => ({ header: FORM_FIELD_LABEL[f], key: f, width: 14 })),
  { header: '审核状态', key: 'status', width: 10 },
  { header: '审核意见', key: 'reason', width: 30 },
  { header: '提交时间', key: 'submittedAt', width: 20 },
];

/** A form value as the export's cell shows it (the form holds text, numbers and flags). */
const cellText = (v: unknown): string => (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : '');

export interface SheetOptions {
  cipher: DataCipher;
  /** The full ID number and phone (admins, who need them for tickets); masked otherwise. */
  full: boolean;
  /** The office's time zone, in which submission times are written. */
  timeZone: string;
}

function exportRow(r: ReviewRecord, { cipher, full, timeZone }: SheetOptions): Record<string, string | number> {
  const idno = cipher.decrypt(r.idno_enc);
  const form = parseForm(r.form) as Record<string, unknown>;
  return {
    applicationNo: r.application_no ?? '',
    name: r.name,
    sex: r.sex,
    birthday: r.birthday,
    idno: full ? idno : maskIdno(idno),
    mobile: full ? r.mobile : maskMobile(r.mobile),
    code: r.position_code ?? '',
    position: r.position_name ?? '',
    unit: r.unit ?? '',
    ...Object.fromEntries(EXPORT_FORM_FIELDS.map((f) => [f, cellText(form[f])])),
    status: APPLICATION_STATUS_LABEL[r.status],
    reason: r.reason,
    submittedAt: r.submitted_at ? zonedDateTimeSeconds(r.submitted_at, timeZone) : '',
  };
}

async function* exportRows(batches: AsyncIterable<ReviewRecord[]>, options: SheetOptions) {
  for await (const batch of batches) yield batch.map((r) => exportRow(r, options));
}

/** What the export worker (src/export-worker.ts) is given for the applications' workbook. */
export interface ApplicationsExportJob {
  kind: 'applications';
  suite: CryptoSuite;
  dataKey: Uint8Array;
  previousKeys: Uint8Array[];
  scope: ApplicationScope;
  examId: number;
  full: boolean;
  timeZone: string;
}

/** Rows read per query: memory holds about one batch. */
const BATCH = 500;

/**
 * The applications' workbook (.xlsx), read on `db` (the export worker's own connection) and written
 * to `out` as the batches arrive (lib/xlsx-stream.ts), each row only once `out` has taken what
 * came before, so memory holds one batch whatever the exam's size.
 */
export async function writeApplicationsExport(db: Db, job: ApplicationsExportJob, out: Writable) {
  const cipher = createDataCipher(
    Buffer.from(job.dataKey),
    job.previousKeys.map((k) => Buffer.from(k)),
    job.suite,
  );
  const repo = createReviewRepository(db);
  const rows = exportRows(repo.stream(job.scope, job.examId, BATCH), { cipher, full: job.full, timeZone: job.timeZone });
  await writeSheet(out, '报名信息', EXPORT_COLUMNS, rows);
}
