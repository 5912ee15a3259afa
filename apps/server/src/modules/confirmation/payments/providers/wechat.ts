import { createPublicKey } from 'node:crypto';
import type { AxiosInstance } from 'axios';
import { Decorator } from 'wechatpay-axios-plugin';
import { clock } from '../../../../lib/clock';
import { toRfc3339Shanghai, verifyWechatNotify, wechatAck } from './wechat-notify';
import type { PaymentProvider, ProviderTrade } from './types';

export interface WechatConfig {
  mchid: string;
  appid: string;
  /** The serial number of the merchant's API certificate. */
  serial: string;
  /** The merchant's API private key (PEM). */
  privateKey: string;
  /** WeChat Pay's platform public key (PEM) and its id (the serial its notifies name). */
  platformPublicKey: string;
  platformSerial: string;
  /** The APIv3 key (32 characters) that encrypts notify resources. */
  apiV3Key: string;
}

interface WechatTrade {
  trade_state?: string;
  transaction_id?: string;
  success_time?: string;
  amount?: { total?: number };
}

/**
 * WeChat Pay API v3 through wechatpay-axios-plugin (the Node.js client WeChat Pay's developer
 * documentation lists): requests signed with the merchant key and answers verified with the
 * platform key; Native pay (a QR code) on computers, H5 pay on phones; the notify verified and
 * decrypted by wechat-notify.ts.
 */
export function createWechatProvider(config: WechatConfig, http?: AxiosInstance): PaymentProvider {
  const platformKey = createPublicKey(config.platformPublicKey);
  const client =
    http ??
    Decorator.jsonBased({
      mchid: config.mchid,
      serial: config.serial,
      privateKey: config.privateKey,
      certs: { [config.platformSerial]: platformKey },
    });
  const keys = { platformKeys: new Map([[config.platformSerial, platformKey]]), apiV3Key: config.apiV3Key };
  const tradePath = (orderNo: string) => `/v3/pay/transactions/out-trade-no/${encodeURIComponent(orderNo)}`;

  async function query(orderNo: string): Promise<ProviderTrade> {
    try {
      const { data } = await client.get<WechatTrade>(tradePath(orderNo), { params: { mchid: config.mchid } });
      const state = data.trade_state ?? '';
      const paid = state === 'SUCCESS' || state === 'REFUND';
      return {
        state: paid ? 'paid' : state === 'CLOSED' || state === 'REVOKED' || state === 'PAYERROR' ? 'closed' : 'unpaid',
        tradeNo: data.transaction_id ?? null,
        amount: data.amount?.total ?? null,
        paidAt: paid && data.success_time ? new Date(data.success_time).toISOString() : null,
      };
    } catch (err) {
      const status = (err as { response?: { status?: number } }).response?.status;
      if (status === 404) return { state: 'absent', tradeNo: null, amount: null, paidAt: null };
      throw err;
    }
  }

  return {
    name: 'wechat',
    async create(order) {
      const common = {
        appid: config.appid,
        mchid: config.mchid,
        description: order.subject.slice(0, 127),
        out_trade_no: order.orderNo,
        time_expire: toRfc3339Shanghai(order.expiresAt),
        notify_url: order.notifyUrl,
        amount: { total: order.amount, currency: 'CNY' },
      };
      if (order.mobile) {
        const { data } = await client.post<{ h5_url: string }>('/v3/pay/transactions/h5', {
          ...common,
          scene_info: { payer_client_ip: order.clientIp, h5_info: { type: 'Wap' } },
        });
        return { payUrl: `${data.h5_url}&redirect_url=${encodeURIComponent(order.returnUrl)}` };
      }
      const { data } = await client.post<{ code_url: string }>('/v3/pay/transactions/native', common);
      return { payUrl: data.code_url };
    },
    verifyNotify: async (request) => verifyWechatNotify(request, keys, clock.nowMs()),
    ack: wechatAck,
    query,
    async close(orderNo) {
      try {
        await client.post(`${tradePath(orderNo)}/close`, { mchid: config.mchid });
      } catch (err) {
        // Already paid or closed: the query below says which.
        const status = (err as { response?: { status?: number } }).response?.status;
        if (status === undefined || status >= 500) throw err;
      }
      const now = await query(orderNo);
      return now.state === 'paid' ? now : { ...now, state: 'closed' };
    },
    async refund({ orderNo, refundNo, amount, total, reason }) {
      await client.post('/v3/refund/domestic/refunds', {
        out_trade_no: orderNo,
        out_refund_no: refundNo,
        reason: reason.slice(0, 80),
        amount: { refund: amount, total, currency: 'CNY' },
      });
    },
  };
}
