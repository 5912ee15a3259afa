import type { PaymentProviderName } from '@zhikaoyun/shared';

/** An order as a provider is asked to make it (amount in fen). */
export interface NewOrder {
  orderNo: string;
  amount: number;
  subject: string;
  /** After this instant the provider refuses payment (ISO UTC). */
  expiresAt: string;
  notifyUrl: string;
  returnUrl: string;
  /** A phone's browser gets the provider's mobile cashier (Alipay wap pay, WeChat H5). */
  mobile: boolean;
  /** The payer's address (WeChat H5 needs it). */
  clientIp: string;
}

/** A server-to-server notify after its signature was checked, or why it was not believed. */
export type VerifiedNotify =
  | {
      ok: true;
      orderNo: string;
      tradeNo: string;
      /** Fen, as the provider says was paid. */
      amount: number;
      /** False for notifies that report something other than a completed payment (a closed trade). */
      paid: boolean;
      /** The provider's time of payment (ISO UTC). */
      paidAt: string | null;
    }
  | { ok: false; reason: string; orderNo: string };

/** A trade as the provider sees it now. */
export interface ProviderTrade {
  state: 'paid' | 'unpaid' | 'closed' | 'absent';
  tradeNo: string | null;
  amount: number | null;
  paidAt: string | null;
}

export interface NotifyRequest {
  headers: Record<string, string | string[] | undefined>;
  /** The body exactly as received: signatures are over these bytes. */
  rawBody: string;
}

/** The answer a provider's notify expects, in its own protocol. */
export interface NotifyAck {
  status: number;
  contentType: string;
  body: string;
}

export interface RefundRequest {
  orderNo: string;
  /** Ours, made once when the refund was decided: the provider refunds one request number once. */
  refundNo: string;
  amount: number;
  total: number;
  reason: string;
}

/**
 * One payment provider. The adapters (Alipay, WeChat Pay, the sandbox) differ in protocol only;
 * every rule about money (amounts, idempotency, deadlines) lives in the payments service.
 */
export interface PaymentProvider {
  readonly name: PaymentProviderName;
  create(order: NewOrder): Promise<{ payUrl: string }>;
  verifyNotify(request: NotifyRequest): Promise<VerifiedNotify>;
  ack(ok: boolean): NotifyAck;
  query(orderNo: string): Promise<ProviderTrade>;
  /** Closes an unpaid trade so it can never be paid; answers the trade as it then stands (paid, if it was paid first). */
  close(orderNo: string): Promise<ProviderTrade>;
  /** Refunds; a repeated refundNo is refunded once. Throws when the provider could not be asked. */
  refund(request: RefundRequest): Promise<void>;
}

/** Header lookup that tolerates any case and repeated headers. */
export function header(headers: NotifyRequest['headers'], name: string): string {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? (v[0] ?? '') : (v ?? '');
}
