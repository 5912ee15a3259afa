import { ErrorCode } from '@zhikaoyun/shared';
import { parentPort, Worker, workerData, type ResourceLimits, type Transferable } from 'node:worker_threads';
import { AppError } from './app-error';

/**
 * CPU-bound steps of the console's heavy calls (reading an uploaded sheet, seating an exam,
 * ranking its scores) run as tasks in worker threads of one script, so the event loop that
 * answers candidates never computes them (decision 014). The main thread sends a task's input
 * (large arrays moved, not copied), the worker answers its value; one task per worker at a time,
 * at most `size` workers, the others' tasks wait. Idle workers end after `idleMs`.
 *
 * A task's AppError (a Chinese message for the office) crosses as itself. A worker that dies
 * (out of its heap, a crash) fails only the task it ran, with the caller's Chinese message;
 * nothing is written by a task, so the caller's all-or-nothing write never starts. The same holds
 * for a task that runs past `timeoutMs` (its worker is terminated, a fresh one takes its place)
 * and for every task still running or waiting when the pool is closed (the server's shutdown).
 */
export interface WorkerPoolOptions {
  /** Workers at most (default 2). */
  size?: number;
  /** An idle worker ends after this long (default 30 s). */
  idleMs?: number;
  /** Each worker's heap: a runaway task fails alone instead of swelling the process. */
  resourceLimits?: ResourceLimits;
  /** Given to every worker at start (e.g. how to open the database). */
  workerData?: unknown;
  /** Told why a worker died under a task (the office hears only the task's `stopped` words). */
  onWorkerError?: (err: Error, task: string) => void;
  /** A task still running after this long is ended with its worker (none by default). */
  timeoutMs?: number;
}

/** What a task still running or waiting hears when the pool closes (the server is stopping). */
export const POOL_CLOSED_TEXT = '服务器正在重启，本次操作未执行，请稍后重试';

type Request = { task: string; input: unknown };
type Reply = { ok: true; value: unknown } | { ok: false; appError?: { errorCode: ErrorCode; msg: string }; message: string };
/** Sent once by a worker whose script has loaded and listens for tasks. */
type Ready = { ready: true };
const isReady = (m: unknown): m is Ready => typeof m === 'object' && m !== null && 'ready' in m;

/** A task's answer with the buffers to move (not copy) to the other side. */
export interface Moved<T> {
  value: T;
  transfer: Transferable[];
}
export const moved = <T>(value: T, transfer: Transferable[]): Moved<T> => ({ value, transfer });
/** The buffers under typed arrays, to move with them. */
export const buffersOf = (...views: ArrayBufferView[]): ArrayBuffer[] => views.map((v) => v.buffer as ArrayBuffer);

interface Slot {
  worker: Worker;
  /** Settles once the worker's script has loaded: a task's time limit counts from then, not from the start of a thread. */
  ready: Promise<void>;
  idle: NodeJS.Timeout | null;
}

export function createWorkerPool(script: URL | string, options: WorkerPoolOptions = {}) {
  const { size = 2, idleMs = 30_000, resourceLimits, timeoutMs } = options;
  const free: Slot[] = [];
  /** The running tasks, each with how to end it and its worker at once (the pool's close). */
  const running = new Map<Slot, () => void>();
  const waiting: ((slot: Slot | null) => void)[] = [];
  let started = 0;
  let closed = false;

  function spawn(): Slot {
    started++;
    const worker = new Worker(script, { workerData: options.workerData, ...(resourceLimits ? { resourceLimits } : {}) });
    // An idle worker never keeps the process alive.
    worker.unref();
    const ready = new Promise<void>((resolve) => {
      const onReady = (m: unknown) => {
        if (!isReady(m)) return;
        worker.off('message', onReady);
        resolve();
      };
      worker.on('message', onReady);
    });
    const slot: Slot = { worker, ready, idle: null };
    // However it ends (idle, crashed, closed): its place is free for a fresh one.
    worker.once('exit', () => {
      if (slot.idle) clearTimeout(slot.idle);
      const i = free.indexOf(slot);
      if (i >= 0) free.splice(i, 1);
      started--;
      const next = waiting.shift();
      if (next) next(null);
    });
    return slot;
  }

  async function take(): Promise<Slot> {
    if (closed) throw new AppError(ErrorCode.Validation, POOL_CLOSED_TEXT);
    const slot = free.pop();
    if (slot) {
      if (slot.idle) clearTimeout(slot.idle);
      slot.idle = null;
      return slot;
    }
    if (started < size) return spawn();
    const next = await new Promise<Slot | null>((resolve) => waiting.push(resolve));
    if (closed) {
      if (next) void next.worker.terminate();
      throw new AppError(ErrorCode.Validation, POOL_CLOSED_TEXT);
    }
    return next ?? spawn();
  }

  function give(slot: Slot) {
    const next = waiting.shift();
    if (next) return next(slot);
    if (closed) return void slot.worker.terminate();
    slot.idle = setTimeout(() => void slot.worker.terminate(), idleMs);
    slot.idle.unref();
    free.push(slot);
  }

  return {
    /**
     * Runs `task` on `input` in a worker; `transfer`: the input's buffers to move there.
     * `stopped`: what the office is told when the worker dies under the task; `timedOut`: when
     * the task runs past the pool's `timeoutMs`.
     */
    async run<T>(
      task: string,
      input: unknown,
      { transfer = [], stopped, timedOut = stopped }: { transfer?: Transferable[]; stopped: string; timedOut?: string },
    ): Promise<T> {
      const slot = await take();
      return new Promise<T>((resolve, reject) => {
        const { worker } = slot;
        let finished = false;
        let timer: NodeJS.Timeout | null = null;
        const done = () => {
          finished = true;
          worker.off('message', onMessage);
          worker.off('error', onError);
          worker.off('exit', onExit);
          if (timer) clearTimeout(timer);
          running.delete(slot);
        };
        // Ends the task and its worker (its place is freed by the worker's exit, see spawn).
        const end = (cause: Error | null, msg: string) => {
          done();
          if (cause) options.onWorkerError?.(cause, task);
          void worker.terminate();
          reject(new AppError(ErrorCode.Validation, msg));
        };
        // A fresh worker first loads its script (seconds on a busy machine): that is not the task's time.
        if (timeoutMs)
          void slot.ready.then(() => {
            if (!finished) timer = setTimeout(() => end(new Error(`task ran past its limit of ${timeoutMs} ms`), timedOut), timeoutMs);
          });
        running.set(slot, () => end(null, POOL_CLOSED_TEXT));
        const onMessage = (reply: Reply | Ready) => {
          if (isReady(reply)) return;
          done();
          give(slot);
          if (reply.ok) resolve(reply.value as T);
          else if (reply.appError) reject(new AppError(reply.appError.errorCode, reply.appError.msg));
          else reject(new Error(`worker task ${task} failed: ${reply.message}`));
        };
        // A crash or an exhausted heap: this task fails with the caller's words (logged as the cause).
        const onError = (err: Error) => end(err, stopped);
        const onExit = (code: number) => {
          done();
          options.onWorkerError?.(new Error(`worker exited (${code})`), task);
          reject(new AppError(ErrorCode.Validation, stopped));
        };
        worker.on('message', onMessage);
        worker.on('error', onError);
        worker.on('exit', onExit);
        worker.postMessage({ task, input } satisfies Request, transfer);
      });
    },

    /**
     * Ends every worker, busy or idle (the app's close): the running tasks and the waiting ones
     * fail with POOL_CLOSED_TEXT, so the requests behind them are answered and the server's close
     * does not wait on a sheet or a ranking.
     */
    async close(): Promise<void> {
      closed = true;
      for (const w of waiting.splice(0)) w(null);
      const busy = [...running.keys()].map((s) => s.worker);
      for (const end of [...running.values()]) end();
      await Promise.all(busy.map((w) => w.terminate()));
      await Promise.all(
        free.splice(0).map((s) => {
          if (s.idle) clearTimeout(s.idle);
          return s.worker.terminate();
        }),
      );
    },
  };
}

/** The worker's side: answers each task with its handler's value (moved when it says so). */
export function serveTasks(handlers: Record<string, (input: never, context: unknown) => Promise<unknown>>) {
  const port = parentPort;
  if (!port) return;
  port.on('message', ({ task, input }: Request) => {
    const handler = handlers[task];
    void (async () => {
      try {
        if (!handler) throw new Error(`unknown task ${task}`);
        const out = await handler(input as never, workerData);
        if (out && typeof out === 'object' && 'transfer' in out && 'value' in out) {
          const m = out as Moved<unknown>;
          port.postMessage({ ok: true, value: m.value } satisfies Reply, m.transfer);
        } else port.postMessage({ ok: true, value: out } satisfies Reply);
      } catch (err) {
        const appError = err instanceof AppError ? { errorCode: err.errorCode, msg: err.message } : undefined;
        port.postMessage({
          ok: false,
          message: err instanceof Error ? err.message : String(err),
          ...(appError ? { appError } : {}),
        } satisfies Reply);
      }
    })();
  });
  port.postMessage({ ready: true } satisfies Ready);
}
