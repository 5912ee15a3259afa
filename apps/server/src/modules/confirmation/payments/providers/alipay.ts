import { fenToYuan, yuanToFen, zonedDateTimeSeconds, zonedToInstant } from '@zhikaoyun/shared';
import { AlipaySdk } from 'alipay-sdk';
import type { NotifyAck, PaymentProvider, ProviderTrade, VerifiedNotify } from './types';

export interface AlipayConfig {
  appId: string;
  /** The application's private key (PEM, PKCS#1 or PKCS#8). */
  privateKey: string;
  /** Alipay's public key for this application (PEM): notifies and answers are verified with it. */
  alipayPublicKey: string;
  /** The gateway; Alipay's sandbox has its own. */
  gateway?: string | undefined;
}

/** Alipay's times are Beijing wall-clock text. */
const ALIPAY_ZONE = 'Asia/Shanghai';

/** The pieces of Alipay's async notify we read (form fields, as sent). */
function field(body: Record<string, unknown>, name: string): string {
  const v = body[name];
  return typeof v === 'string' ? v : '';
}

/**
 * Alipay through its official SDK: page pay (computers) or wap pay (phones), the async notify
 * verified with RSA2 by the SDK's checkNotifySignV2, trade query, close and refund.
 */
export function createAlipayProvider(config: AlipayConfig, sdk: AlipaySdk = newSdk(config)): PaymentProvider & { sdk: AlipaySdk } {
  async function query(orderNo: string): Promise<ProviderTrade> {
    const r = await sdk.exec('alipay.trade.query', { bizContent: { out_trade_no: orderNo } });
    if (r.code !== '10000') {
      if (r.subCode === 'ACQ.TRADE_NOT_EXIST') return { state: 'absent', tradeNo: null, amount: null, paidAt: null };
      throw new Error(`alipay.trade.query: ${r.code} ${r.subCode ?? ''}`);
    }
    const status = String(r.tradeStatus ?? '');
    const paid = status === 'TRADE_SUCCESS' || status === 'TRADE_FINISHED';
    const sent = typeof r.sendPayDate === 'string' ? zonedToInstant(r.sendPayDate, ALIPAY_ZONE) : null;
    return {
      state: paid ? 'paid' : status === 'TRADE_CLOSED' ? 'closed' : 'unpaid',
      tradeNo: typeof r.tradeNo === 'string' ? r.tradeNo : null,
      amount: typeof r.totalAmount === 'string' ? yuanToFen(r.totalAmount) : null,
      paidAt: paid ? sent : null,
    };
  }

  return {
    name: 'alipay',
    sdk,
    async create(order) {
      const url = sdk.pageExec(order.mobile ? 'alipay.trade.wap.pay' : 'alipay.trade.page.pay', 'GET', {
        bizContent: {
          out_trade_no: order.orderNo,
          product_code: order.mobile ? 'QUICK_WAP_WAY' : 'FAST_INSTANT_TRADE_PAY',
          total_amount: fenToYuan(order.amount),
          subject: order.subject,
          time_expire: zonedDateTimeSeconds(order.expiresAt, ALIPAY_ZONE),
        },
        notifyUrl: order.notifyUrl,
        returnUrl: order.returnUrl,
      });
      return { payUrl: url };
    },

    async verifyNotify({ rawBody }): Promise<VerifiedNotify> {
      const body = Object.fromEntries(new URLSearchParams(rawBody));
      const orderNo = field(body, 'out_trade_no');
      let signed = false;
      try {
        // RSA2 only (the older SHA-1 RSA is refused); the values are already decoded, so V2 (no second decode).
        signed = field(body, 'sign_type') === 'RSA2' && sdk.checkNotifySignV2(body);
      } catch {
        signed = false;
      }
      if (!signed) return { ok: false, reason: '签名验证失败', orderNo };
      // A notify for another application of the same merchant is not ours to act on.
      if (field(body, 'app_id') !== config.appId) return { ok: false, reason: 'app_id 不符', orderNo };
      const amount = yuanToFen(field(body, 'total_amount'));
      if (amount === null) return { ok: false, reason: '金额格式有误', orderNo };
      const status = field(body, 'trade_status');
      const gmt = field(body, 'gmt_payment');
      return {
        ok: true,
        orderNo,
        tradeNo: field(body, 'trade_no'),
        amount,
        paid: status === 'TRADE_SUCCESS' || status === 'TRADE_FINISHED',
        paidAt: /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(gmt) ? zonedToInstant(gmt, ALIPAY_ZONE) : null,
      };
    },

    ack(ok: boolean): NotifyAck {
      // Alipay reads exactly "success"; anything else is a failure it retries.
      return { status: 200, contentType: 'text/plain', body: ok ? 'success' : 'fail' };
    },

    query,

    async close(orderNo) {
      const r = await sdk.exec('alipay.trade.close', { bizContent: { out_trade_no: orderNo } });
      // Never scanned: Alipay has no trade, and after the close none can be paid (time_expire passes too).
      if (r.code === '10000' || r.subCode === 'ACQ.TRADE_NOT_EXIST') {
        const now = await query(orderNo);
        return now.state === 'paid' ? now : { ...now, state: 'closed' };
      }
      return query(orderNo);
    },

    async refund({ orderNo, refundNo, amount, reason }) {
      const r = await sdk.exec('alipay.trade.refund', {
        bizContent: { out_trade_no: orderNo, refund_amount: fenToYuan(amount), out_request_no: refundNo, refund_reason: reason },
      });
      if (r.code !== '10000') throw new Error(`alipay.trade.refund: ${r.code} ${r.subCode ?? ''}`);
    },
  };
}

function newSdk(config: AlipayConfig): AlipaySdk {
  return new AlipaySdk({
    appId: config.appId,
    privateKey: config.privateKey,
    alipayPublicKey: config.alipayPublicKey,
    keyType: config.privateKey.includes('BEGIN RSA PRIVATE KEY') ? 'PKCS1' : 'PKCS8',
    ...(config.gateway ? { gateway: config.gateway } : {}),
  });
}
