import type { KeyObject } from 'node:crypto';
import { zonedDateTimeSeconds } from '@zhikaoyun/shared';
import { Aes, Formatter, Rsa } from 'wechatpay-axios-plugin';
import { z } from 'zod';
import { header, type NotifyAck, type NotifyRequest, type VerifiedNotify } from './types';

/**
 * WeChat Pay API v3 notifies: the platform signs `timestamp\nnonce\nbody\n` with RSA-SHA256 and
 * encrypts the transaction with the merchant's APIv3 key (AES-256-GCM). The sandbox provider
 * sends exactly this format with its own keys, so the sandbox and WeChat Pay share this code.
 */

/** A notify signed longer ago than this is refused (a captured one cannot be replayed later). */
const MAX_SKEW_SECONDS = 300;

const envelopeSchema = z.object({
  id: z.string(),
  event_type: z.string(),
  resource: z.object({
    algorithm: z.literal('AEAD_AES_256_GCM'),
    ciphertext: z.string(),
    associated_data: z.string().default(''),
    nonce: z.string(),
  }),
});

const transactionSchema = z.object({
  out_trade_no: z.string(),
  transaction_id: z.string().default(''),
  trade_state: z.string(),
  success_time: z.string().optional(),
  amount: z.object({ total: z.number().int() }),
});

export interface WechatNotifyKeys {
  /** The platform's public keys by serial (WeChat rotates them; the serial header names the one used). */
  platformKeys: ReadonlyMap<string, KeyObject>;
  apiV3Key: string;
}

export function verifyWechatNotify(request: NotifyRequest, keys: WechatNotifyKeys, nowMs: number): VerifiedNotify {
  const timestamp = header(request.headers, 'wechatpay-timestamp');
  const nonce = header(request.headers, 'wechatpay-nonce');
  const signature = header(request.headers, 'wechatpay-signature');
  const serial = header(request.headers, 'wechatpay-serial');
  const key = keys.platformKeys.get(serial);
  if (!timestamp || !nonce || !signature || !key) return { ok: false, reason: '缺少签名或平台证书序列号不符', orderNo: '' };
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(nowMs / 1000 - Number(timestamp)) > MAX_SKEW_SECONDS)
    return { ok: false, reason: '通知时间戳超出允许范围', orderNo: '' };
  let verified = false;
  try {
    verified = Rsa.verify(Formatter.joinedByLineFeed(timestamp, nonce, request.rawBody), signature, key);
  } catch {
    verified = false;
  }
  if (!verified) return { ok: false, reason: '签名验证失败', orderNo: '' };
  let body: z.infer<typeof envelopeSchema>;
  let trade: z.infer<typeof transactionSchema>;
  try {
    body = envelopeSchema.parse(JSON.parse(request.rawBody));
    const plain = Aes.AesGcm.decrypt(body.resource.ciphertext, keys.apiV3Key, body.resource.nonce, body.resource.associated_data);
    trade = transactionSchema.parse(JSON.parse(plain));
  } catch {
    return { ok: false, reason: '通知内容无法解密或格式有误', orderNo: '' };
  }
  const paid = body.event_type === 'TRANSACTION.SUCCESS' && trade.trade_state === 'SUCCESS';
  const paidAt = trade.success_time ? new Date(trade.success_time) : null;
  return {
    ok: true,
    orderNo: trade.out_trade_no,
    tradeNo: trade.transaction_id,
    amount: trade.amount.total,
    paid,
    paidAt: paidAt && !Number.isNaN(paidAt.getTime()) ? paidAt.toISOString() : null,
  };
}

/**
 * WeChat Pay reads any 2xx as received, and retries on anything else: a refusal is a 4xx (the
 * notify itself was wrong), never a 5xx, which is kept for a fault of ours.
 */
export function wechatAck(ok: boolean): NotifyAck {
  return ok
    ? { status: 200, contentType: 'application/json', body: JSON.stringify({ code: 'SUCCESS', message: '成功' }) }
    : { status: 400, contentType: 'application/json', body: JSON.stringify({ code: 'FAIL', message: '失败' }) };
}

/** Builds a notify the way WeChat Pay does (the sandbox sends these; tests forge them with keys of their own). */
export function signWechatNotify(
  trade: { orderNo: string; tradeNo: string; amount: number; paidAt: string; state?: string },
  keys: { privateKey: KeyObject; serial: string; apiV3Key: string },
  nowMs: number,
  nonce: string,
): NotifyRequest {
  const resourceNonce = nonce.slice(0, 12).padEnd(12, '0');
  const plain = JSON.stringify({
    out_trade_no: trade.orderNo,
    transaction_id: trade.tradeNo,
    trade_type: 'NATIVE',
    trade_state: trade.state ?? 'SUCCESS',
    trade_state_desc: '支付成功',
    success_time: toRfc3339Shanghai(trade.paidAt),
    amount: { total: trade.amount, payer_total: trade.amount, currency: 'CNY', payer_currency: 'CNY' },
  });
  const rawBody = JSON.stringify({
    id: `${trade.tradeNo}-${nonce}`,
    create_time: toRfc3339Shanghai(new Date(nowMs).toISOString()),
    resource_type: 'encrypt-resource',
    event_type: (trade.state ?? 'SUCCESS') === 'SUCCESS' ? 'TRANSACTION.SUCCESS' : 'TRANSACTION.CLOSED',
    summary: '支付成功',
    resource: {
      original_type: 'transaction',
      algorithm: 'AEAD_AES_256_GCM',
      ciphertext: Aes.AesGcm.encrypt(plain, keys.apiV3Key, resourceNonce, 'transaction'),
      associated_data: 'transaction',
      nonce: resourceNonce,
    },
  });
  const timestamp = String(Math.floor(nowMs / 1000));
  return {
    rawBody,
    headers: {
      'content-type': 'application/json',
      'wechatpay-timestamp': timestamp,
      'wechatpay-nonce': nonce,
      'wechatpay-serial': keys.serial,
      'wechatpay-signature': Rsa.sign(Formatter.joinedByLineFeed(timestamp, nonce, rawBody), keys.privateKey),
    },
  };
}

/** 2026-12-01T08:00:00.000Z → 2026-12-01T16:00:00+08:00, the form WeChat Pay writes times in. */
export function toRfc3339Shanghai(iso: string): string {
  return `${zonedDateTimeSeconds(iso, 'Asia/Shanghai').replace(' ', 'T')}+08:00`;
}
