import { ErrorCode } from '@zhikaoyun/shared';
import { Readable, Writable } from 'node:stream';
import { Worker, type MessagePort, type ResourceLimits } from 'node:worker_threads';
import { AppError } from './app-error';

/**
 * Heavy work that answers with a file (a million-row export) runs in a worker thread, so the
 * event loop that serves candidates never waits for it. The worker writes the file into
 * `portWritable`; the main thread reads it from `streamFromWorker` as an ordinary Readable. Flow
 * control crosses the thread boundary: the worker has at most WINDOW chunks unacknowledged, and
 * the main thread acknowledges a chunk only once its reader (the HTTP response) wants more, so a
 * slow download slows the worker instead of filling memory.
 */
const WINDOW = 8;

type FromWorker = { chunk: Uint8Array } | { end: true } | { error: string };

/** Workers running now, and those waiting for a place (at most `limit` run at once). */
function createGate(limit: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return {
    async enter() {
      if (running < limit) {
        running++;
        return;
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
    },
    leave() {
      const next = waiting.shift();
      if (next) next();
      else running--;
    },
  };
}

/** A limit as the office reads it: 「2 小时」, 「90 分钟」, 「30 秒」. */
function limitText(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} 小时`;
  if (ms % 60_000 === 0) return `${ms / 60_000} 分钟`;
  return `${Math.ceil(ms / 1000)} 秒`;
}

/** What the office is told when an export runs past its limit, unless the caller says it another way. */
const exportTimedOut = (limit: string) => `导出用时超过 ${limit}，已停止，请稍后重试；数据特别多时请联系系统管理员调整时限`;

export interface WorkerStreamOptions {
  /** The worker's heap limits: a worker that outgrows them ends with an error instead of swelling the process. */
  resourceLimits?: ResourceLimits;
  /** How many such workers may run at once; others wait their turn. */
  concurrency?: number;
  /** Told why a file failed before its first bytes (the office hears only the caller's words). */
  onWorkerError?: (err: Error) => void;
  /**
   * A worker still writing this long after it started (its wait for a place not counted) is
   * ended and its file broken off (none by default). A slow download slows its worker (flow
   * control), so this counts the reader's time too.
   */
  timeoutMs?: number;
}

/** Starts workers of one script and reads what each writes. */
export function createWorkerStreams(
  script: URL | string,
  { resourceLimits, concurrency = 2, onWorkerError, timeoutMs }: WorkerStreamOptions = {},
) {
  const gate = createGate(concurrency);

  /** The file the worker writes for `workerData`, as it is written; destroyed (and the worker stopped) on error or abort. */
  function start(workerData: unknown, timedOut: string): { readable: Readable; firstBytes: Promise<void> } {
    let worker: Worker | null = null;
    let timer: NodeJS.Timeout | null = null;
    const stopTimer = () => {
      if (timer) clearTimeout(timer);
      timer = null;
    };
    let owed = 0;
    let ended = false;
    let begun = false;
    let begin = () => {};
    let failBefore: (err: Error) => void = () => {};
    const firstBytes = new Promise<void>((resolve, reject) => {
      begin = () => {
        begun = true;
        resolve();
      };
      failBefore = reject;
    });
    // Whether this stream holds one of the gate's places (taken once, given back once).
    let holding = false;
    const leave = () => {
      if (holding) gate.leave();
      holding = false;
    };
    const readable = new Readable({
      highWaterMark: 1 << 20,
      read() {
        if (owed > 0 && worker) {
          worker.postMessage(owed);
          owed = 0;
        }
      },
      destroy(err, callback) {
        stopTimer();
        if (worker && !ended) void worker.terminate();
        leave();
        if (!begun) failBefore(err ?? new Error('export stream closed before its first bytes'));
        callback(err);
      },
    });
    void gate.enter().then(() => {
      holding = true;
      if (readable.destroyed) return leave();
      const w = new Worker(script, { workerData, ...(resourceLimits ? { resourceLimits } : {}) });
      worker = w;
      if (timeoutMs) {
        // Past its limit: the worker is ended (destroy) and the reader hears the office's words,
        // before the first bytes as the call's answer, after them as the stream's error.
        timer = setTimeout(() => {
          onWorkerError?.(new Error(`export worker ran past its limit of ${timeoutMs} ms`));
          readable.destroy(new AppError(ErrorCode.Validation, timedOut));
        }, timeoutMs);
        timer.unref();
      }
      w.on('message', (m: FromWorker) => {
        if ('chunk' in m) {
          if (!begun) begin();
          owed++;
          // Room for more: acknowledged at once; else when the reader asks (read above).
          if (readable.push(Buffer.from(m.chunk.buffer, m.chunk.byteOffset, m.chunk.byteLength))) {
            w.postMessage(owed);
            owed = 0;
          }
        } else if ('end' in m) {
          ended = true;
          stopTimer();
          if (!begun) begin();
          readable.push(null);
        } else readable.destroy(new Error(m.error));
      });
      w.on('error', (err) => readable.destroy(err));
      w.on('exit', (code) => {
        stopTimer();
        leave();
        if (!ended && !readable.destroyed) readable.destroy(new Error(`worker stopped (exit code ${code})`));
      });
    });
    return { readable, firstBytes };
  }

  return {
    /**
     * The worker's file once its first bytes are written. A failure before them (no database,
     * a crash, an exhausted heap) is an AppError with `failed`'s words, which the route answers
     * as an envelope the console shows; one after them breaks the download off, so the browser
     * never keeps a truncated file as a whole one. Each worker reads its rows before it writes.
     * Past the limit (`timeoutMs`) the words are `timedOut`'s, given the limit (「2 小时」).
     */
    async open(workerData: unknown, failed: string, timedOut: (limit: string) => string = exportTimedOut): Promise<Readable> {
      const { readable, firstBytes } = start(workerData, timedOut(limitText(timeoutMs ?? 0)));
      // Until the route takes the stream (its reply listens then), a failure must not be an
      // unhandled 'error' event: it is answered through `firstBytes`, or by the reply later.
      readable.on('error', () => undefined);
      try {
        await firstBytes;
      } catch (err) {
        // Past its limit: the office is told that, not that it failed (already logged above).
        if (err instanceof AppError) throw err;
        onWorkerError?.(err instanceof Error ? err : new Error(String(err)));
        throw new AppError(ErrorCode.Validation, failed);
      }
      return readable;
    },
  };
}

/** The worker's side: a Writable whose chunks go to the main thread, at most WINDOW unacknowledged. */
export function portWritable(port: MessagePort): Writable {
  let unacknowledged = 0;
  let resume: (() => void) | null = null;
  port.on('message', (n: number) => {
    unacknowledged -= n;
    if (resume && unacknowledged < WINDOW) {
      const go = resume;
      resume = null;
      go();
    }
  });
  return new Writable({
    highWaterMark: 1 << 16,
    write(chunk: Buffer, _encoding, callback) {
      // A copy of its own, moved (not copied again) to the main thread.
      const bytes = new Uint8Array(chunk);
      port.postMessage({ chunk: bytes }, [bytes.buffer]);
      unacknowledged++;
      if (unacknowledged < WINDOW) callback();
      else resume = () => callback();
    },
    final(callback) {
      port.postMessage({ end: true });
      callback();
    },
  });
}

/** The worker's side: a failure, told to the main thread (which destroys the stream it reads). */
export function reportWorkerError(port: MessagePort, err: unknown) {
  port.postMessage({ error: err instanceof Error ? err.message : String(err) });
}
