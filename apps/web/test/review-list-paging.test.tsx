import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReactNode } from 'react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ReviewItem } from '@zhikaoyun/shared';
import { useReviewList } from '../src/features/registration/review/console/api';
import { consoleHttp } from '../src/lib/console-http';
import { useStaffSession } from '../src/lib/staff-session';

/**
 * The queue's paging as the console asks for it, against a loopback server that pages a list of
 * 95 rows the way the server's contract says (by number, or from an edge row): a step to the next
 * or previous page goes from the shown page's edge row, a jump goes by number, and a refresh of a
 * page asks it the same way again.
 */
const ROWS: ReviewItem[] = Array.from({ length: 95 }, (_, i) => ({
  id: i + 1,
  name: `考生${i + 1}`,
  idnoMasked: '330106********101X',
  mobileMasked: '137****1000',
  sex: '男',
  birthday: '1995-01-15',
  positionId: 1,
  positionCode: '202601001',
  positionName: '初中语文教师',
  unit: '市教育局直属学校',
  status: 'submitted',
  reason: '',
  // Three rows share each second: the order is (submittedAt, id).
  submittedAt: new Date(Date.UTC(2026, 10, 20, 8, 0, Math.floor(i / 3))).toISOString(),
}));

type Edge = { submittedAt: string; id: number };
const asks: { page: number; after?: Edge; before?: Edge }[] = [];
const cmp = (r: ReviewItem, e: Edge) => (r.submittedAt! < e.submittedAt ? -1 : r.submittedAt! > e.submittedAt ? 1 : r.id - e.id);

function handler(req: IncomingMessage, res: ServerResponse) {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    const q = JSON.parse(body) as { page: number; pageSize: number; after?: Edge; before?: Edge };
    asks.push({ page: q.page, ...(q.after ? { after: q.after } : {}), ...(q.before ? { before: q.before } : {}) });
    const list = q.after
      ? ROWS.filter((r) => cmp(r, q.after!) > 0).slice(0, q.pageSize)
      : q.before
        ? ROWS.filter((r) => cmp(r, q.before!) < 0).slice(-q.pageSize)
        : ROWS.slice((q.page - 1) * q.pageSize, q.page * q.pageSize);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ success: true, data: { list, total: ROWS.length } }));
  });
}

let server: Server;
beforeAll(async () => {
  server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  consoleHttp.defaults.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  consoleHttp.defaults.adapter = 'http';
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});
beforeEach(() => {
  asks.length = 0;
  useStaffSession.setState({ token: 'staff-token' });
});

const ids = (list: ReviewItem[] | undefined) => list?.map((r) => r.id);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('review queue paging', () => {
  it('steps from the edge rows, jumps by number, and refreshes a page the way it was asked', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    type Props = { page: number; status?: 'approved' };
    const first: Props = { page: 1 };
    const hook = renderHook((q: Props) => useReviewList({ examId: 3, pageSize: 20, ...q }), { wrapper, initialProps: first });
    const shows = async (expected: number[]) => {
      await waitFor(() => expect(hook.result.current.isPlaceholderData).toBe(false));
      await waitFor(() => expect(ids(hook.result.current.data?.list)).toEqual(expected));
    };
    await shows(range(1, 20));
    expect(asks.at(-1)).toEqual({ page: 1 });

    hook.rerender({ page: 2 });
    await shows(range(21, 40));
    expect(asks.at(-1)).toEqual({ page: 2, after: { submittedAt: ROWS[19]!.submittedAt, id: 20 } });

    hook.rerender({ page: 3 });
    await shows(range(41, 60));
    expect(asks.at(-1)).toMatchObject({ page: 3, after: { id: 40 } });

    // A refresh asks page 3 the same way: the query is unchanged.
    const before = asks.length;
    await client.refetchQueries({ type: 'active' });
    await shows(range(41, 60));
    expect(asks.slice(before)).toEqual([{ page: 3, after: { submittedAt: ROWS[39]!.submittedAt, id: 40 } }]);

    hook.rerender({ page: 2 });
    await shows(range(21, 40));
    expect(asks.at(-1)).toMatchObject({ page: 2, before: { id: 41 } });

    // A jump goes by number; so does a step once the filters change.
    hook.rerender({ page: 5 });
    await shows(range(81, 95));
    expect(asks.at(-1)).toEqual({ page: 5 });
    hook.rerender({ page: 4, status: 'approved' });
    await shows(range(61, 80));
    expect(asks.at(-1)).toEqual({ page: 4 });
    hook.unmount();
    client.clear();
  });
});
