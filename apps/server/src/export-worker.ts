// The exports' worker thread (built to dist/export-worker.js beside the server): one per export,
// of either kind. It reads the exam's rows on a connection of its own and writes the workbook to
// the main thread, which sends it on (lib/worker-stream.ts; decisions 013 and 016).
import { parentPort, workerData } from 'node:worker_threads';
import type { Database } from './config';
import { openDatabase } from './db/database';
import { portWritable, reportWorkerError } from './lib/worker-stream';
import { writeApplicationsExport, type ApplicationsExportJob } from './modules/registration/review/export-sheet';
import { writeRankingExport, type RankingExportJob } from './modules/scores/scores/ranking-sheet';
import { writeExamArchive, type ArchiveJob } from './modules/platform/archive/archive-writer';
import { nowIso } from './lib/clock';

export type ExportJob = { database: Database } & (ApplicationsExportJob | RankingExportJob | ArchiveJob);

async function run(port: NonNullable<typeof parentPort>, job: ExportJob) {
  const db = openDatabase(job.database, { poolSize: 1 });
  const out = portWritable(port);
  try {
    if (job.kind === 'applications') await writeApplicationsExport(db, job, out);
    else if (job.kind === 'archive')
      // The archive's progress goes to its row (the console polls it), with a heartbeat: a row not
      // touched for long belongs to a job that died with its process.
      await writeExamArchive(db, job, out, async (progress) => {
        await db.kysely
          .updateTable('exam_archive')
          .set({ progress, updated_at: nowIso() })
          .where('exam_id', '=', job.examId)
          .where('status', '=', 'running')
          .execute();
      });
    else await writeRankingExport(db, job, out);
  } catch (err) {
    reportWorkerError(port, err);
  } finally {
    await db.destroy();
    // Nothing left to wait for: the thread ends once its last chunk is acknowledged.
    port.close();
  }
}

if (parentPort) void run(parentPort, workerData as ExportJob);
