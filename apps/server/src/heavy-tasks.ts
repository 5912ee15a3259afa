import type { Database } from './config';
import { openDatabase, type Db } from './db/database';
import { buffersOf, createWorkerPool, moved, type Moved, type WorkerPoolOptions } from './lib/worker-pool';
import { arrangePacked, type PackedArrangeInput, type PackedArrangeResult } from './modules/arrangement/arrange';
import { readSiteSheet } from './modules/arrangement/sheet';
import { readPositionSheet } from './modules/positions/sheet';
import { computeRanking, type RankingInput, type RankingOutput } from './modules/scores/ranking';
import { readScoreSheetPacked, type PackedScoreSheet, type ReadScoresInput } from './modules/scores/sheet';

/**
 * The CPU-bound steps of the console's heavy calls, each a task of the heavy worker thread
 * (`heavy-worker.ts`, bundled to dist/heavy-worker.js; decision 014): reading uploaded sheets
 * (exceljs), computing the seat arrangement, and ranking the scores on a connection of the
 * worker's own. The main thread keeps what must stay there: the checks against the database and
 * the all-or-nothing writes in one transaction.
 */
export interface HeavyWorkerData {
  /** How the worker opens its own connection (the ranking reads there). */
  database: Database;
}

type File = { examId: number; file: Uint8Array };
const bufferOf = (f: Uint8Array) => Buffer.from(f.buffer, f.byteOffset, f.byteLength);

let db: Db | null = null;
function connection(data: HeavyWorkerData): Db {
  db ??= openDatabase(data.database, { poolSize: 1 });
  return db;
}

/** The worker's side: task name → handler. */
export const HEAVY_HANDLERS = {
  readScores: (input: ReadScoresInput) => readScoreSheetPacked(input),
  readPositions: (input: File) => readPositionSheet(input.examId, bufferOf(input.file)),
  readSites: (input: File) => readSiteSheet(input.examId, bufferOf(input.file)),
  async arrange(input: PackedArrangeInput): Promise<Moved<PackedArrangeResult> | PackedArrangeResult> {
    const result = arrangePacked(input);
    if (!result.ok) return result;
    const s = result.seats;
    return moved(result, buffersOf(s.sitting, s.application, s.subject, s.site, s.room, s.seat));
  },
  rank: (input: RankingInput, data: unknown) => computeRanking(connection(data as HeavyWorkerData), input),
};

/** What the office hears when the worker dies under a task (out of memory, a crash): nothing was written. */
const STOPPED = {
  sheet: (noun: string) => `${noun}处理失败，未导入任何数据；请删除多余的行、列和工作表后重新导入，或稍后再试`,
  arrange: '编排计算失败，未做任何编排，请稍后再试',
  rank: '成绩排名计算失败，请稍后再试',
};

/** A copy of an upload's bytes to move to the worker (the request keeps its own). */
const fileCopy = (file: Buffer) => new Uint8Array(file);

/** The main thread's side: the tasks as typed calls on a pool of heavy workers. */
export function createHeavyTasks(script: URL | string, options: WorkerPoolOptions & { workerData: HeavyWorkerData }) {
  const pool = createWorkerPool(script, options);
  return {
    readScores(input: Omit<ReadScoresInput, 'file'> & { file: Buffer }, noun = '成绩表'): Promise<PackedScoreSheet> {
      const file = fileCopy(input.file);
      const { application, position } = input.tickets;
      return pool.run('readScores', { ...input, file }, { transfer: buffersOf(file, application, position), stopped: STOPPED.sheet(noun) });
    },
    readPositions(examId: number, buffer: Buffer): ReturnType<typeof readPositionSheet> {
      const file = fileCopy(buffer);
      return pool.run('readPositions', { examId, file }, { transfer: buffersOf(file), stopped: STOPPED.sheet('岗位表') });
    },
    readSites(examId: number, buffer: Buffer): ReturnType<typeof readSiteSheet> {
      const file = fileCopy(buffer);
      return pool.run('readSites', { examId, file }, { transfer: buffersOf(file), stopped: STOPPED.sheet('考点表') });
    },
    arrange(input: PackedArrangeInput): Promise<PackedArrangeResult> {
      return pool.run('arrange', input, {
        transfer: buffersOf(input.application, input.position, input.city),
        stopped: STOPPED.arrange,
      });
    },
    rank(input: RankingInput): Promise<RankingOutput> {
      return pool.run('rank', input, { stopped: STOPPED.rank });
    },
    close: () => pool.close(),
  };
}

export type HeavyTasks = ReturnType<typeof createHeavyTasks>;
