import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A round-robin proxy like a load balancer's: each request goes to the next upstream; when an
 * upstream refuses the connection (its process is gone) the request goes to the next one, as
 * nginx's proxy_next_upstream does. Bodies are buffered so that a retry sends the same bytes.
 */
export function roundRobin(upstreams: () => number[]): Promise<{ url: string; served: Map<number, number>; close(): Promise<void> }> {
  let turn = 0;
  const served = new Map<number, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const ports = upstreams();
      const first = turn++;
      const attempt = (n: number) => {
        if (n >= ports.length) {
          res.writeHead(502).end();
          return;
        }
        const port = ports[(first + n) % ports.length]!;
        const up = request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers }, (r: IncomingMessage) => {
          served.set(port, (served.get(port) ?? 0) + 1);
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        });
        up.on('error', (err: NodeJS.ErrnoException) => {
          if (!res.headersSent && (err.code === 'ECONNREFUSED' || err.code === 'ECONNRESET')) attempt(n + 1);
          else res.destroy();
        });
        up.end(body);
      };
      attempt(0);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        served,
        close: () => new Promise<void>((r) => server.close(() => r())),
      }),
    ),
  );
}
