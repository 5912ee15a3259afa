import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ReviewDetail } from '@zhikaoyun/shared';
import { ReviewDrawer } from '../src/features/registration/review/console/ReviewDrawer';
import { consoleHttp } from '../src/lib/console-http';
import { useStaffSession } from '../src/lib/staff-session';

/**
 * The review drawer against an HTTP server on the loopback that answers the two calls the way
 * the server's contract says: the detail with the ID number and mobile masked for every role,
 * and revealApplication with them in full.
 */
const detail = (id: number, status: ReviewDetail['status']): ReviewDetail => ({
  id,
  name: '张晓明',
  idnoMasked: '330106********101X',
  mobileMasked: '137****1000',
  sex: '男',
  birthday: '1995-01-15',
  positionId: 1,
  positionCode: '202601001',
  positionName: '初中语文教师',
  unit: '市教育局直属学校',
  status,
  reason: '',
  submittedAt: '2026-11-23T13:28:00.000Z',
  email: '',
  photo: '',
  form: { school: '浙江大学' },
  history: [],
});

const seen: { method: string; path: string; body: string; auth: string | undefined }[] = [];
let server: Server;

function handler(req: IncomingMessage, res: ServerResponse) {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push({ method: req.method ?? '', path: url.pathname, body, auth: req.headers.authorization });
    const json = (data: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: true, data }));
    };
    if (url.pathname === '/api/admin/getApplicationDetail') {
      const id = Number(url.searchParams.get('id'));
      return json(detail(id, id === 7 ? 'submitted' : 'approved'));
    }
    if (url.pathname === '/api/admin/revealApplication') return json({ idno: '33010619950115101X', mobile: '13700001000' });
    res.writeHead(404).end();
  });
}

beforeAll(async () => {
  server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  consoleHttp.defaults.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  consoleHttp.defaults.adapter = 'http'; // real sockets, not the DOM's XHR
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});
beforeEach(() => {
  seen.length = 0;
  useStaffSession.setState({ token: 'staff-token' });
});

function show(id: number) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <ReviewDrawer id={id} onClose={() => undefined} />
      </App>
    </QueryClientProvider>,
  );
}

describe('review drawer', () => {
  it('shows the ID number and mobile masked, and in full only after 查看完整信息', async () => {
    show(7);
    expect(await screen.findByText('330106********101X')).toBeTruthy();
    expect(screen.getByText('137****1000')).toBeTruthy();
    expect(screen.queryByText('33010619950115101X')).toBeNull();
    expect(seen.filter((r) => r.path === '/api/admin/revealApplication')).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: /查看完整信息/ }));
    expect(await screen.findByText('33010619950115101X')).toBeTruthy();
    expect(screen.getByText('13700001000')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /查看完整信息/ })).toBeNull();
    const reveal = seen.filter((r) => r.path === '/api/admin/revealApplication');
    expect(reveal).toHaveLength(1);
    expect(reveal[0]).toMatchObject({ method: 'POST', auth: 'Bearer staff-token' });
    expect(JSON.parse(reveal[0]!.body)).toEqual({ id: 7 });
  });

  it('offers 审核通过 and 审核不通过 as reviewActions says: for a submitted application only', async () => {
    const submitted = show(7);
    expect(await screen.findByRole('button', { name: '审核通过' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '审核不通过' })).toBeTruthy();
    submitted.unmount();

    show(8);
    await screen.findByText('330106********101X');
    await waitFor(() => expect(screen.queryByRole('button', { name: '审核通过' })).toBeNull());
    expect(screen.queryByRole('button', { name: '审核不通过' })).toBeNull();
  });
});
