import { createPublicKey, randomBytes, type KeyObject } from 'node:crypto';
import { ErrorCode, fenToYuan, zonedDateTimeSeconds, zonedDay } from '@zhikaoyun/shared';
import { AppError, notFound } from '../../../../lib/app-error';
import { clock } from '../../../../lib/clock';
import type { SandboxRepository, SandboxTrade } from '../sandbox-repository';
import { signWechatNotify, verifyWechatNotify, wechatAck } from './wechat-notify';
import type { NotifyRequest, PaymentProvider, ProviderTrade } from './types';

/**
 * The built-in provider for a machine without a merchant account (the default under `npm start`)
 * and for the tests. It keeps its own books (sandbox_trade), shows a cashier page, and tells us of
 * a payment the way WeChat Pay does: a notify signed with its own key pair and its transaction
 * encrypted with AES-256-GCM, checked by the very code that checks WeChat Pay's. Like the real
 * providers it delivers asynchronously and retries until the notify is acknowledged.
 */

/** The wait before each delivery, the first at once: Alipay's schedule (8 tries over about 25 hours). */
export const SANDBOX_NOTIFY_SCHEDULE_MS = [0, 4, 10, 10, 60, 120, 360, 900].map((m) => m * 60_000);

export interface SandboxKeys {
  privateKey: KeyObject;
  publicKey: KeyObject;
  serial: string;
  apiV3Key: string;
}

/** Posts a notify to our own notify route and answers its HTTP status. */
export type Deliver = (path: string, request: NotifyRequest) => Promise<number>;

export function sandboxKeysFrom(privateKey: KeyObject, apiV3Key: string): SandboxKeys {
  const publicKey = createPublicKey(privateKey);
  // The serial names the key the way a platform certificate's serial does: stable per key pair.
  const der = publicKey.export({ type: 'spki', format: 'der' });
  const serial = `SANDBOX${Buffer.from(der).subarray(-12).toString('hex').toUpperCase()}`;
  return { privateKey, publicKey, serial, apiV3Key };
}

export function createSandbox({ repo, keys, deliver }: { repo: SandboxRepository; keys: SandboxKeys; deliver: Deliver }) {
  const verifyKeys = { platformKeys: new Map([[keys.serial, keys.publicKey]]), apiV3Key: keys.apiV3Key };

  function asTrade(row: SandboxTrade | undefined): ProviderTrade {
    if (!row) return { state: 'absent', tradeNo: null, amount: null, paidAt: null };
    const state = row.status === 'paid' ? 'paid' : row.status === 'closed' || row.expires_at < clock.nowIso() ? 'closed' : 'unpaid';
    return { state, tradeNo: row.trade_no, amount: row.amount, paidAt: row.paid_at };
  }

  /** One delivery of the notify of a paid trade; on failure the next try is scheduled, after the last none. */
  async function deliverOne(orderNo: string): Promise<boolean> {
    const row = await repo.trade(orderNo);
    if (!row || row.status !== 'paid' || row.acked_at || !row.paid_at) return true;
    const request = signWechatNotify(
      { orderNo, tradeNo: row.trade_no, amount: row.amount, paidAt: row.paid_at },
      keys,
      clock.nowMs(),
      randomBytes(16).toString('hex'),
    );
    let status = 0;
    try {
      status = await deliver(new URL(row.notify_url, 'http://sandbox.invalid').pathname, request);
    } catch {
      status = 0;
    }
    const acked = status >= 200 && status < 300;
    const attempts = row.notify_attempts + 1;
    const next = SANDBOX_NOTIFY_SCHEDULE_MS[attempts];
    if (acked) await repo.notifyAcked(orderNo, attempts, clock.nowIso());
    else await repo.notifyFailed(orderNo, attempts, next === undefined ? null : clock.isoIn(next));
    return acked;
  }

  const provider: PaymentProvider = {
    name: 'sandbox',
    async create(order) {
      await repo.create({
        order_no: order.orderNo,
        trade_no: `SB${clock.today('Asia/Shanghai').replace(/-/g, '')}${randomBytes(8).toString('hex')}`,
        amount: order.amount,
        subject: order.subject,
        status: 'open',
        notify_url: order.notifyUrl,
        return_url: order.returnUrl,
        created_at: clock.nowIso(),
        expires_at: order.expiresAt,
      });
      return { payUrl: `/api/payment/sandbox/cashier?orderNo=${order.orderNo}` };
    },
    verifyNotify: async (request) => verifyWechatNotify(request, verifyKeys, clock.nowMs()),
    ack: wechatAck,
    async query(orderNo) {
      return asTrade(await repo.trade(orderNo));
    },
    async close(orderNo) {
      await repo.close(orderNo);
      return asTrade(await repo.trade(orderNo));
    },
    async refund({ orderNo, refundNo, amount }) {
      const row = await repo.trade(orderNo);
      if (!row || row.status !== 'paid') throw new Error(`sandbox: trade ${orderNo} is not paid`);
      // The refund number is the key: asked twice, it refunds once (as the real providers do).
      await repo.refund({ refundNo, orderNo, amount, at: clock.nowIso() });
    },
  };

  return {
    provider,
    keys,

    /** What the cashier page shows. */
    async cashier(orderNo: string) {
      const row = await repo.trade(orderNo);
      if (!row) throw notFound('order');
      return { ...asTrade(row), orderNo, subject: row.subject, amount: row.amount, expiresAt: row.expires_at, returnUrl: row.return_url };
    },

    /** The payer pays: the trade is paid (once), and the notify goes out at once and then on the schedule. */
    async pay(orderNo: string): Promise<{ returnUrl: string }> {
      const now = clock.nowIso();
      const moved = await repo.pay(orderNo, now);
      const row = await repo.trade(orderNo);
      if (!row) throw notFound('order');
      if (row.status !== 'paid') throw new AppError(ErrorCode.Validation, '订单已关闭或已超过支付期限，请返回重新发起支付');
      if (moved) setImmediate(() => void deliverOne(orderNo).catch(() => undefined));
      return { returnUrl: row.return_url };
    },

    /** Delivers every notify whose time has come (the sweeper calls this); answers how many were acknowledged. */
    async deliverDue(limit = 200): Promise<number> {
      let acked = 0;
      for (const orderNo of await repo.dueNotifies(clock.nowIso(), limit)) if (await deliverOne(orderNo)) acked += 1;
      return acked;
    },
    deliverOne,

    /** The sandbox's statement of a day (its own time zone: Beijing) for one office, in its CSV format. */
    async statement(officeId: number, day: string): Promise<string> {
      const rows = await repo.paid(officeId);
      const lines = ['商户订单号,交易号,金额（元）,支付时间'];
      for (const r of rows) {
        if (!r.paid_at || zonedDay(r.paid_at) !== day) continue;
        lines.push([r.order_no, r.trade_no, fenToYuan(r.amount), zonedDateTimeSeconds(r.paid_at)].join(','));
      }
      return `${lines.join('\n')}\n`;
    },
  };
}
