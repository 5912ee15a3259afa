// The applications export's worker thread (built to dist/export-worker.js beside the server):
// reads the exam's applications on a connection of its own and writes the workbook to the main
// thread, which sends it on. See lib/worker-stream.ts.
import { parentPort, workerData } from 'node:worker_threads';
import type { Database } from '../../config';
import { openDatabase } from '../../db/database';
import { createDataCipher } from '../../lib/crypto';
import { portWritable, reportWorkerError } from '../../lib/worker-stream';
import { writeApplicationsSheet } from './export-sheet';
import { createReviewRepository } from './repository';
import type { ApplicationScope } from './scope';

export interface ExportJob {
  database: Database;
  dataKey: Uint8Array;
  previousKeys: Uint8Array[];
  scope: ApplicationScope;
  examId: number;
  full: boolean;
  timeZone: string;
}

/** Rows read per query: memory holds about one batch. */
const BATCH = 500;

async function run(port: NonNullable<typeof parentPort>, job: ExportJob) {
  const db = openDatabase(job.database, { poolSize: 1 });
  const out = portWritable(port);
  try {
    const cipher = createDataCipher(
      Buffer.from(job.dataKey),
      job.previousKeys.map((k) => Buffer.from(k)),
    );
    const repo = createReviewRepository(db);
    await writeApplicationsSheet(repo.stream(job.scope, job.examId, BATCH), out, { cipher, full: job.full, timeZone: job.timeZone });
  } catch (err) {
    reportWorkerError(port, err);
  } finally {
    await db.destroy();
    // Nothing left to wait for: the thread ends once its last chunk is acknowledged.
    port.close();
  }
}

if (parentPort) void run(parentPort, workerData as ExportJob);
