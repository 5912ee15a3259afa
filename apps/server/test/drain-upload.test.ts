import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app';
import { DATABASES } from './helpers/databases';

/**
 * A stopping process refuses new work with 503 + Retry-After (decision 041), which the site's
 * waiting room waits out. An upload whose body is still being sent when the stop began gets that
 * answer too, not a broken connection. (Rolling restarts in bench:rush still showed a few EPIPE on
 * uploadPhoto; this test shows a slow upload is not their cause: docs/operations.md.)
 */
const sqlite = DATABASES.find((d) => d.name === 'sqlite')!;

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

  it('answers an upload still being sent with 503 and Retry-After, not a broken connection', async () => {
    t.app.drain.start();
    // 2 MiB in 16 pieces over about half a second: the headers arrive long before the body ends.
    const answer = await slowUpload(port, 16, 128 * 1024, 30);
    expect(answer).toEqual({ status: 503, retryAfter: '1' });
  });
});
