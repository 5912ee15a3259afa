import { yuanToFen, zonedToInstant, type PaymentProviderName, type StatementLine } from '@zhikaoyun/shared';

/**
 * Providers' statements, as staff download them from the merchant portals: Alipay's 业务明细
 * (CSV, usually GBK, `#` comment lines around a header row), WeChat Pay's 交易账单 (CSV whose
 * cells start with a backtick, totals at the end) and the sandbox's. Each becomes the list of
 * payments it shows (refund rows are left out): order number, provider's trade number, fen, time.
 */

/** Statement times are Beijing wall-clock text. */
const PROVIDER_ZONE = 'Asia/Shanghai';

export class StatementError extends Error {}

function decode(data: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data).replace(/^\uFEFF/, '');
  } catch {
    return new TextDecoder('gbk').decode(data);
  }
}

/** One CSV line into cells (quotes honoured), each trimmed of spaces, tabs and WeChat's leading backtick. */
function cells(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const ch = line[i]!;
    if (ch === '"') {
      if (quoted && line[i + 1] === '"') {
        cur += '"';
        i += 1;
      } else quoted = !quoted;
    } else if (ch === ',' && !quoted) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out.map((c) => c.trim().replace(/^`/, '').trim());
}

function instant(text: string): string | null {
  const t = text.replace(/\//g, '-');
  return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(t) ? zonedToInstant(t, PROVIDER_ZONE) : null;
}

interface Layout {
  provider: PaymentProviderName;
  marker: string;
  orderNo: string;
  tradeNo: string;
  amount: string;
  paidAt: string;
  /** A row is a payment when this column has this value (refunds are rows too). */
  kind?: { column: string; value: string };
}

const LAYOUTS: Layout[] = [
  {
    provider: 'alipay',
    marker: '支付宝交易号',
    orderNo: '商户订单号',
    tradeNo: '支付宝交易号',
    amount: '订单金额（元）',
    paidAt: '完成时间',
    kind: { column: '业务类型', value: '交易' },
  },
  {
    provider: 'wechat',
    marker: '微信订单号',
    orderNo: '商户订单号',
    tradeNo: '微信订单号',
    amount: '订单金额',
    paidAt: '交易时间',
    kind: { column: '交易状态', value: 'SUCCESS' },
  },
  { provider: 'sandbox', marker: '金额（元）', orderNo: '商户订单号', tradeNo: '交易号', amount: '金额（元）', paidAt: '支付时间' },
];

/** At most this many lines: a month of a large office's payments. */
const MAX_LINES = 200_000;

export function parseStatement(data: Buffer): { provider: PaymentProviderName; lines: StatementLine[] } {
  const rows = decode(data).split(/\r?\n/);
  if (rows.length > MAX_LINES) throw new StatementError(`对账单超过 ${MAX_LINES} 行，请按日下载后分批上传`);
  const headerAt = rows.findIndex((r) => !r.startsWith('#') && LAYOUTS.some((l) => r.includes(l.marker)));
  if (headerAt < 0) throw new StatementError('无法识别对账单格式：请上传支付宝业务明细、微信支付交易账单或模拟支付对账单（CSV）');
  const header = cells(rows[headerAt]!);
  const layout = LAYOUTS.find((l) => header.includes(l.marker) && header.includes(l.orderNo))!;
  const col = (name: string) => {
    const i = header.indexOf(name);
    if (i < 0) throw new StatementError(`对账单缺少「${name}」列`);
    return i;
  };
  const [iOrder, iTrade, iAmount, iPaid] = [col(layout.orderNo), col(layout.tradeNo), col(layout.amount), col(layout.paidAt)];
  const iKind = layout.kind ? col(layout.kind.column) : -1;
  const lines: StatementLine[] = [];
  for (let n = headerAt + 1; n < rows.length; n += 1) {
    const row = rows[n]!;
    if (row.trim() === '' || row.startsWith('#')) continue;
    const c = cells(row);
    // WeChat's totals block starts with its own header row; nothing after it is a trade.
    if (c[0] === '总交易单数') break;
    if (layout.kind && c[iKind] !== layout.kind.value) continue;
    const orderNo = c[iOrder] ?? '';
    const amount = yuanToFen(c[iAmount] ?? '');
    const paidAt = instant(c[iPaid] ?? '');
    if (!orderNo || amount === null || paidAt === null) throw new StatementError(`对账单第 ${n + 1} 行无法读取（订单号、金额或时间有误）`);
    lines.push({ orderNo, tradeNo: c[iTrade] ?? '', amount, paidAt });
  }
  return { provider: layout.provider, lines };
}
