import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A stand-in for an outside provider's API on this machine: records each request, answers what the test says. */
export interface StandInApi {
  readonly base: string;
  readonly seen: StandInRequest[];
  /** What the next requests are answered with, as JSON. */
  answer: (req: StandInRequest) => unknown;
  close(): Promise<void>;
}

export async function startStandInApi(): Promise<StandInApi> {
  const seen: StandInRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      seen.push(r);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(api.answer(r)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const api: StandInApi = {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    answer: () => ({}),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return api;
}
