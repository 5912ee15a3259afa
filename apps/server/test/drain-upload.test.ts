import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app';
import { DATABASES } from './helpers/databases';

/**
 * A stopping process refuses new work with 503 + Retry-After (decision 041), which the site's
 * waiting room waits out. An upload whose body is still being sent when the stop began gets that
 * answer too, not a broken connection: the refusal waits for the body before it closes the
 * connection (rolling restarts in bench:rush showed EPIPE on about 1 upload in 17 during a drain).
 */
const sqlite = DATABASES.find((d) => d.name === 'sqlite')!;
const execFileAsync = promisify(execFile);
const SENDER = path.join(__dirname, 'helpers/photo-sender.mjs');
const PHOTO = path.join(__dirname, 'fixtures/photos/good-light-blue-295x413.jpg');

/**
 * A POST whose body arrives in `chunks` pieces `gapMs` apart, through fetch as the bench and the
 * site send it: the status and Retry-After, or why the call failed.
 */
async function slowUpload(
  port: number,
  chunks: number,
  size: number,
  gapMs: number,
): Promise<{ status: number; retryAfter: string } | { error: string }> {
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent === chunks) return controller.close();
      sent += 1;
      await new Promise((r) => setTimeout(r, gapMs));
      controller.enqueue(new Uint8Array(size).fill(1));
    },
  });
  try {
    const res = await fetch(`http://127.0.0.1:${port}/api/uploadPhoto`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body,
      duplex: 'half',
    });
    await res.arrayBuffer();
    return { status: res.status, retryAfter: res.headers.get('retry-after') ?? '' };
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return { error: cause?.code ?? cause?.message ?? String(err) };
  }
}

describe.skipIf(sqlite.skipped !== null)('a stopping process and an upload in flight', () => {
  let t: TestApp;
  let port = 0;
  beforeAll(async () => {
    t = await createTestApp(sqlite, {});
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  it('answers photos sent whole by another process (as the site and bench:rush send them) with 503 and Retry-After, not a broken pipe', async () => {
    t.app.drain.start();
    // The senders in a process of their own: in this one, each body would be written whole before
    // the server's hook ran, and the race with the closing connection never seen.
    const run = await execFileAsync(process.execPath, [SENDER, String(port), PHOTO, '8', '50'], { timeout: 60_000 });
    expect(JSON.parse(run.stdout)).toEqual({ '503 1': 400 });
  });

  it('answers an upload still being sent with 503 and Retry-After, not a broken connection', async () => {
    t.app.drain.start();
    // 2 MiB in 16 pieces over about half a second: the headers arrive long before the body ends.
    const answer = await slowUpload(port, 16, 128 * 1024, 30);
    expect(answer).toEqual({ status: 503, retryAfter: '1' });
  });
});
