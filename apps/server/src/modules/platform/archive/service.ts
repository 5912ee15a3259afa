import { ARCHIVE_NOT_ENDED_TEXT, ARCHIVE_NOT_READY_TEXT, ARCHIVE_RUNNING_TEXT, ErrorCode, type ExamArchiveStatus } from '@zhikaoyun/shared';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema';
import { AppError } from '../../../lib/app-error';
import { archiveKey } from '../../../lib/archive-mac';
import { clock, nowIso } from '../../../lib/clock';
import type { KeyRing } from '../../../lib/crypto-suite';
import type { StaffPrincipal } from '../../../plugins/auth';
import type { Office } from '../../../plugins/tenancy';
import { officeAdminScope } from '../../access/scope';
import type { ExamLookup } from '../../content/exams/lookup';
import type { AuditService } from '../audit/service';
import type { ArchiveJob } from './archive-writer';
import { examEnds, examOver, type ExamEnd } from './exam-end';

/** A running archive whose row has not moved for this long died with its process (a restart): it reads as failed. */
const STALE_MS = 10 * 60_000;
const FAILED_TEXT = '归档生成失败，请稍后重试';
/** An archive past EXPORT_TASK_TIMEOUT_SECONDS: stopped, the previous archive (if any) kept. */
const timedOutText = (limit: string) =>
  `归档生成用时超过 ${limit}，已停止（原有归档不受影响），请稍后重试；数据特别多时请联系系统管理员调整时限`;

export interface ArchiveDeps {
  db: Kysely<DB>;
  /** The exams' one lookup: an exam that is not the office's is answered by it. */
  exams: Pick<ExamLookup, 'require'>;
  audit: AuditService;
  keys: KeyRing;
  /** ARCHIVE_DIR: where the zips are kept. */
  dir: string;
  /**
   * The archive written by the export worker (lib/worker-stream.ts): a stream of the zip;
   * `timedOut`: the words when it runs past the exports' limit (given the limit).
   */
  writeArchive: (job: Omit<ArchiveJob, 'kind'>, failed: string, timedOut: (limit: string) => string) => Promise<Readable>;
  /** The posted PDFs as the console makes them (each audited as its download is). */
  interviewListPdf: (staff: StaffPrincipal, office: Office, examId: number, ip: string) => Promise<Uint8Array>;
  roomSheetsPdf: (staff: StaffPrincipal, office: Office, q: { examId: number; siteId: number }, ip: string) => Promise<Uint8Array>;
  log: (err: unknown, msg: string) => void;
}

/**
 * An exam's sealed archive (issue 36): made once the exam is over, in the background (the export
 * worker writes the zip; this thread hashes it into ARCHIVE_DIR), then downloaded as often as
 * needed. A new archive replaces the previous one only once it is whole.
 */
export function createArchiveService(deps: ArchiveDeps) {
  const { db, audit } = deps;
  const running = new Map<number, Promise<void>>();

  async function end(officeId: number, examId: number): Promise<ExamEnd> {
    await deps.exams.require(officeId, examId);
    // The exam is there (and examEnds reads every exam with its office): its end is too.
    const [e] = await examEnds(db, { officeId, examId });
    return e!;
  }

  const row = (examId: number) => db.selectFrom('exam_archive').selectAll().where('exam_id', '=', examId).executeTakeFirst();
  const stale = (r: { status: string; updated_at: string }) =>
    r.status === 'running' && clock.nowMs() - Date.parse(r.updated_at) > STALE_MS;

  async function pdfs(staff: StaffPrincipal, office: Office, examId: number, ip: string, dir: string) {
    const out: { name: string; path: string }[] = [];
    const save = async (name: string, make: () => Promise<Uint8Array>) => {
      try {
        const bytes = await make();
        const file = path.join(dir, `${randomBytes(6).toString('hex')}.pdf`);
        await writeFile(file, bytes);
        out.push({ name, path: file });
      } catch (err) {
        // A list that cannot be made (no scores imported, nobody seated) is not part of this exam.
        if (!(err instanceof AppError)) throw err;
      }
    };
    await save('面试名单.pdf', () => deps.interviewListPdf(staff, office, examId, ip));
    const sites = await db.selectFrom('exam_site').select(['id', 'code']).where('exam_id', '=', examId).orderBy('code').execute();
    for (const s of sites) await save(`考场签到表-${s.code}.pdf`, () => deps.roomSheetsPdf(staff, office, { examId, siteId: s.id }, ip));
    return out;
  }

  async function run(staff: StaffPrincipal, office: Office, examId: number, examName: string, ip: string) {
    const dir = deps.dir;
    const work = path.join(dir, `.work-${examId}-${randomBytes(4).toString('hex')}`);
    await mkdir(work, { recursive: true });
    const fail = async (err: unknown) => {
      deps.log(err, 'exam archive failed');
      await db
        .updateTable('exam_archive')
        .set({ status: 'failed', error: err instanceof AppError ? err.message : FAILED_TEXT, updated_at: nowIso() })
        .where('exam_id', '=', examId)
        .execute();
    };
    try {
      const key = archiveKey(deps.keys);
      const job: Omit<ArchiveJob, 'kind'> = {
        officeId: office.id,
        examId,
        office: { id: office.id, code: office.code, name: office.name },
        exam: { id: examId, name: examName },
        timeZone: office.timeZone,
        createdAt: nowIso(),
        suite: deps.keys.suite,
        dataKey: deps.keys.current,
        previousKeys: [...deps.keys.previous],
        archiveKey: key.key,
        keyId: key.keyId,
        pdfs: await pdfs(staff, office, examId, ip, work),
      };
      const zip = await deps.writeArchive(job, FAILED_TEXT, timedOutText);
      const hash = createHash('sha256');
      let size = 0;
      const file = `exam-${examId}-${Date.now()}.zip`;
      const partial = path.join(work, file);
      await pipeline(
        zip,
        new Transform({
          transform(chunk: Buffer, _enc, callback) {
            hash.update(chunk);
            size += chunk.length;
            callback(null, chunk);
          },
        }),
        createWriteStream(partial),
      );
      await rename(partial, path.join(dir, file));
      const before = await row(examId);
      await db
        .updateTable('exam_archive')
        .set({
          status: 'ready',
          progress: 100,
          size,
          sha256: hash.digest('hex'),
          file,
          error: '',
          updated_at: nowIso(),
          finished_at: nowIso(),
        })
        .where('exam_id', '=', examId)
        .execute();
      if (before?.file && before.file !== file) await rm(path.join(dir, before.file), { force: true });
    } catch (err) {
      await fail(err);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  return {
    /** Starts the exam's archive in the background; refused before the exam is over or while one is being made. */
    async start(staff: StaffPrincipal, office: Office, examId: number, ip: string): Promise<ExamArchiveStatus> {
      const { officeId } = officeAdminScope(staff);
      const e = await end(officeId, examId);
      if (!examOver(e, nowIso())) throw new AppError(ErrorCode.Validation, ARCHIVE_NOT_ENDED_TEXT);
      const current = await row(examId);
      if (running.has(examId) || (current?.status === 'running' && !stale(current)))
        throw new AppError(ErrorCode.Conflict, ARCHIVE_RUNNING_TEXT);
      const at = nowIso();
      const values = {
        status: 'running' as const,
        progress: 0,
        error: '',
        staff_id: staff.id,
        started_at: at,
        updated_at: at,
        finished_at: null,
      };
      if (current) await db.updateTable('exam_archive').set(values).where('exam_id', '=', examId).execute();
      else
        await db
          .insertInto('exam_archive')
          .values({ exam_id: examId, office_id: officeId, size: null, sha256: null, file: null, ...values })
          .execute();
      await audit.record(staff, '生成考试归档', `exam:${examId}`, '', ip);
      await mkdir(deps.dir, { recursive: true });
      const job = run(staff, office, examId, e.name, ip).finally(() => running.delete(examId));
      running.set(examId, job);
      return this.status(officeId, examId);
    },

    async status(officeId: number, examId: number): Promise<ExamArchiveStatus> {
      const e = await end(officeId, examId);
      const r = await row(examId);
      const over = examOver(e, nowIso());
      const base = {
        archivable: over,
        endedAt: over ? e.endedAt : null,
        anonymiseAt: over ? e.anonymiseAt : null,
        anonymisedAt: e.anonymisedAt,
      };
      if (!r) return { status: 'none', progress: 0, size: null, sha256: null, finishedAt: null, error: '', ...base };
      const dead = stale(r) && !running.has(examId);
      return {
        status: dead ? 'failed' : r.status,
        progress: r.progress,
        size: r.status === 'ready' && r.size !== null ? Number(r.size) : null,
        sha256: r.status === 'ready' ? r.sha256 : null,
        finishedAt: r.finished_at,
        error: dead ? FAILED_TEXT : r.error,
        ...base,
      };
    },

    /** The ready archive as a stream, audited. */
    async open(staff: StaffPrincipal, examId: number, ip: string): Promise<{ stream: Readable; size: number; name: string }> {
      const { officeId } = officeAdminScope(staff);
      const e = await end(officeId, examId);
      const r = await row(examId);
      if (!r?.file) throw new AppError(ErrorCode.Validation, ARCHIVE_NOT_READY_TEXT);
      const file = path.join(deps.dir, r.file);
      const { size } = await stat(file).catch(() => {
        throw new AppError(ErrorCode.Validation, ARCHIVE_NOT_READY_TEXT);
      });
      await audit.record(staff, '下载考试归档', `exam:${examId}`, `SHA-256 ${r.sha256 ?? ''}`, ip);
      return { stream: createReadStream(file), size, name: `${e.name}-归档.zip` };
    },

    /** Waits for the archives this process is making (tests; a shutdown). */
    async settled(): Promise<void> {
      await Promise.all([...running.values()]);
    },
  };
}
