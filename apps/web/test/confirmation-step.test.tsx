import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Exam, PaymentStatus } from '@zhikaoyun/shared';
import { ConfirmationStep } from '../src/features/registration/applications/components/ConfirmationStep';
import { http } from '../src/lib/http';

/**
 * The confirmation step against an HTTP server on the loopback that answers as the server does
 * when the office's provider is WeChat Pay and the candidate is on a computer: createPayment
 * gives a Native pay code (`weixin://…`), which cannot be opened as a page.
 */
const DAY = 86_400_000;
const exam: Exam = {
  id: 3,
  name: '示范考试',
  phase: 'confirming',
  registrationStart: new Date(Date.now() - 30 * DAY).toISOString(),
  registrationEnd: new Date(Date.now() - 20 * DAY).toISOString(),
  reviewStart: new Date(Date.now() - 30 * DAY).toISOString(),
  reviewEnd: new Date(Date.now() - 10 * DAY).toISOString(),
  confirmationStart: new Date(Date.now() - DAY).toISOString(),
  confirmationEnd: new Date(Date.now() + 5 * DAY).toISOString(),
  config: { fields: [] } as unknown as Exam['config'],
  fee: 5000,
  openingRatio: 0,
  waiverCategories: [],
  switchStart: null,
  switchEnd: null,
};
const CODE = 'weixin://wxpay/bizpayurl?pr=Xy12abc';
let ordered = false;
const seen: string[] = [];

function status(): PaymentStatus {
  return {
    status: ordered ? 'unpaid' : 'none',
    amount: 5000,
    orderNo: ordered ? 'ZK20261201080000ABCDEF0123' : null,
    paidAt: null,
    deadline: exam.confirmationEnd,
    provider: ordered ? 'wechat' : null,
    waiver: null,
    waiverCategories: [],
    refundedAt: null,
    positionCancelled: false,
    payer: '李明',
  };
}

function handler(req: IncomingMessage, res: ServerResponse) {
  req.resume();
  req.on('end', () => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    seen.push(`${req.method} ${path}`);
    const json = (data: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: true, data }));
    };
    if (path === '/api/getPaymentStatus') return json(status());
    if (path === '/api/checkPayment') return json(status());
    if (path === '/api/createPayment') {
      ordered = true;
      return json({ orderNo: 'ZK20261201080000ABCDEF0123', amount: 5000, provider: 'wechat', payUrl: CODE });
    }
    res.writeHead(404).end();
  });
}

let server: Server;
beforeAll(async () => {
  server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  http.defaults.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  http.defaults.adapter = 'http'; // real sockets, not the DOM's fetch
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});
beforeEach(() => {
  ordered = false;
  seen.length = 0;
});

describe('confirmation step: WeChat Pay Native on a computer', () => {
  it('shows the pay code as a QR code to scan, stays on the page and offers 我已支付', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const before = window.location.href;
    render(
      <QueryClientProvider client={client}>
        <App>
          <ConfirmationStep exam={exam} status="approved" positionId={1} applicationNo={null} />
        </App>
      </QueryClientProvider>,
    );
    await userEvent.click(await screen.findByRole('button', { name: '立即缴费 ¥50.00' }));
    expect(await screen.findByText(/请使用微信“扫一扫”扫描二维码支付/)).toBeTruthy();
    expect(document.querySelector('.confirm-step__code svg')).not.toBeNull();
    expect(await screen.findByRole('button', { name: '我已支付' })).toBeTruthy();
    expect(screen.getByText('待支付订单：ZK20261201080000ABCDEF0123')).toBeTruthy();
    expect(window.location.href).toBe(before);
    expect(seen).toContain('POST /api/createPayment');
    // The status was read again after the order was made, and the open order asked about once.
    expect(seen.filter((s) => s === 'GET /api/getPaymentStatus').length).toBeGreaterThanOrEqual(2);
    await waitFor(() => expect(seen).toContain('POST /api/checkPayment'));
  });

  it('coming back with an open order, the page asks the provider once by itself; with none, never', async () => {
    const view = (client: QueryClient) => (
      <QueryClientProvider client={client}>
        <App>
          <ConfirmationStep exam={exam} status="approved" positionId={1} applicationNo={null} />
        </App>
      </QueryClientProvider>
    );
    const first = render(view(new QueryClient({ defaultOptions: { queries: { retry: false } } })));
    await screen.findByRole('button', { name: '立即缴费 ¥50.00' });
    first.unmount();
    expect(seen).not.toContain('POST /api/checkPayment');

    ordered = true;
    seen.length = 0;
    render(view(new QueryClient({ defaultOptions: { queries: { retry: false } } })));
    await screen.findByRole('button', { name: '我已支付' });
    await waitFor(() => expect(seen).toContain('POST /api/checkPayment'));
    // Its answer (still unpaid) is read again, and the page does not ask a second time by itself.
    await waitFor(() => expect(seen.filter((s) => s === 'GET /api/getPaymentStatus').length).toBeGreaterThanOrEqual(2));
    await new Promise((r) => setTimeout(r, 200));
    expect(seen.filter((s) => s === 'POST /api/checkPayment')).toHaveLength(1);
  });
});
