import type { Database } from './config';
import { openDatabase, type Db } from './db/database';
import type { ResourceLimits, Transferable } from 'node:worker_threads';
import { buffersOf, createWorkerPool, moved, type Moved, type WorkerPoolOptions } from './lib/worker-pool';
import { arrangePacked, type PackedArrangeInput, type PackedArrangeResult } from './modules/arrangement/arrangement/arrange';
import { readSiteSheet } from './modules/arrangement/arrangement/sheet';
import { readPositionSheet } from './modules/content/positions/sheet';
import { computeRanking, type RankingInput, type RankingOutput } from './modules/scores/scores/ranking';
import { readScoreSheetPacked, type PackedScoreSheet, type ReadScoresInput } from './modules/scores/scores/sheet';
import { opsCounters } from './lib/ops-counters';

/**
 * The CPU-bound steps of the console's heavy calls, each a task of the heavy worker thread
 * (`heavy-worker.ts`, bundled to dist/heavy-worker.js; decision 014): reading uploaded sheets
 * (exceljs), computing the seat arrangement, and ranking the scores on a connection of the
 * worker's own. The main thread keeps what must stay there: the checks against the database and
 * the all-or-nothing writes in one transaction.
 *
 * Sheets and computations run on two pools of the same script: a sheet's worker gets a smaller
 * heap than a ranking's (an upload is the office's input, a ranking reads the database), and
 * every task has a wall-clock limit after which its worker is terminated and replaced (security
 * review 3, N1). Together the two pools run at most `size` tasks at once.
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

/** What the office hears when a task runs past its wall-clock limit (its worker was ended). */
export const TIMED_OUT = {
  sheet: '表格处理超时，未导入任何数据，请检查文件后重试',
  arrange: '编排计算超时，未做任何编排，请稍后再试',
  rank: '成绩排名计算超时，请稍后再试',
};

/**
 * A sheet worker's heap: exceljs holds a whole workbook while it reads (a 100,000-row score
 * sheet peaks near 400 MiB); beyond this a runaway sheet fails alone with a Chinese message.
 * Seating and ranking read the database, not an upload, and keep the larger heap.
 */
export const SHEET_WORKER_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 640, maxYoungGenerationSizeMb: 32 };
export const COMPUTE_WORKER_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 1024, maxYoungGenerationSizeMb: 32 };

export interface HeavyTasksOptions extends Omit<WorkerPoolOptions, 'resourceLimits'> {
  workerData: HeavyWorkerData;
  /** Heap of a worker reading an uploaded sheet. */
  sheetLimits?: ResourceLimits;
  /** Heap of a worker seating or ranking an exam. */
  computeLimits?: ResourceLimits;
}

/** At most `n` tasks at once over both pools; the others wait their turn (first come, first served). */
function limiter(n: number) {
  let active = 0;
  const queue: (() => void)[] = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (active >= n) {
      opsCounters.heavyTasks.queued += 1;
      await new Promise<void>((resolve) => queue.push(resolve));
      opsCounters.heavyTasks.queued -= 1;
    } else active++;
    opsCounters.heavyTasks.running += 1;
    try {
      return await work();
    } finally {
      opsCounters.heavyTasks.running -= 1;
      const next = queue.shift();
      if (next) next();
      else active--;
    }
  };
}

/** A copy of an upload's bytes to move to the worker (the request keeps its own). */
const fileCopy = (file: Buffer) => new Uint8Array(file);

/** The main thread's side: the tasks as typed calls on a pool of heavy workers. */
export function createHeavyTasks(
  script: URL | string,
  { sheetLimits = SHEET_WORKER_LIMITS, computeLimits = COMPUTE_WORKER_LIMITS, ...options }: HeavyTasksOptions,
) {
  const size = options.size ?? 2;
  const turn = limiter(size);
  const sheets = createWorkerPool(script, { ...options, size, resourceLimits: sheetLimits });
  const compute = createWorkerPool(script, { ...options, size, resourceLimits: computeLimits });
  const pool = {
    sheet: <T>(task: string, input: unknown, o: { transfer: Transferable[]; stopped: string }) =>
      turn(() => sheets.run<T>(task, input, { ...o, timedOut: TIMED_OUT.sheet })),
    compute: <T>(task: string, input: unknown, o: { transfer?: Transferable[]; stopped: string; timedOut: string }) =>
      turn(() => compute.run<T>(task, input, o)),
  };
  return {
    readScores(input: Omit<ReadScoresInput, 'file'> & { file: Buffer }, noun = '成绩表'): Promise<PackedScoreSheet> {
      const file = fileCopy(input.file);
      const { application, position } = input.tickets;
      return pool.sheet(
        'readScores',
        { ...input, file },
        { transfer: buffersOf(file, application, position), stopped: STOPPED.sheet(noun) },
      );
    },
    readPositions(examId: number, buffer: Buffer): ReturnType<typeof readPositionSheet> {
      const file = fileCopy(buffer);
      return pool.sheet('readPositions', { examId, file }, { transfer: buffersOf(file), stopped: STOPPED.sheet('岗位表') });
    },
    readSites(examId: number, buffer: Buffer): ReturnType<typeof readSiteSheet> {
      const file = fileCopy(buffer);
      return pool.sheet('readSites', { examId, file }, { transfer: buffersOf(file), stopped: STOPPED.sheet('考点表') });
    },
    arrange(input: PackedArrangeInput): Promise<PackedArrangeResult> {
      return pool.compute('arrange', input, {
        transfer: buffersOf(input.application, input.position, input.city),
        stopped: STOPPED.arrange,
        timedOut: TIMED_OUT.arrange,
      });
    },
    rank(input: RankingInput): Promise<RankingOutput> {
      return pool.compute('rank', input, { stopped: STOPPED.rank, timedOut: TIMED_OUT.rank });
    },
    /** Ends every worker, the busy ones too (their calls answer POOL_CLOSED_TEXT). */
    close: async () => {
      await Promise.all([sheets.close(), compute.close()]);
    },
  };
}

export type HeavyTasks = ReturnType<typeof createHeavyTasks>;
