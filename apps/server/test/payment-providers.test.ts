import { createSign, generateKeyPairSync } from 'node:crypto';
import { openingProposal, yuanToFen, fenToYuan } from '@zhikaoyun/shared';
import { describe, expect, it } from 'vitest';
import { createAlipayProvider } from '../src/modules/confirmation/payments/providers/alipay';
import { createWechatProvider } from '../src/modules/confirmation/payments/providers/wechat';
import { signWechatNotify } from '../src/modules/confirmation/payments/providers/wechat-notify';
import { parseStatement } from '../src/modules/confirmation/payments/statements';

/** Keys made here, for each test: no key material lives in the repository. */
function rsaPair() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privateKey,
    publicKey,
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** Signs an Alipay async notify as Alipay does: RSA2 over the sorted key=value pairs, without sign and sign_type. */
function alipayNotify(fields: Record<string, string>, alipayPrivate: ReturnType<typeof rsaPair>['privateKey']): string {
  const content = Object.keys(fields)
    .filter((k) => k !== 'sign' && k !== 'sign_type' && fields[k] !== '')
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join('&');
  const sign = createSign('RSA-SHA256').update(content, 'utf8').sign(alipayPrivate, 'base64');
  return new URLSearchParams({ ...fields, sign_type: 'RSA2', sign }).toString();
}

describe('Alipay adapter: the notify verified by alipay-sdk (RSA2)', () => {
  const app = rsaPair();
  const alipay = rsaPair();
  const provider = createAlipayProvider({ appId: '2021000000000001', privateKey: app.privatePem, alipayPublicKey: alipay.publicPem });
  const fields = {
    app_id: '2021000000000001',
    out_trade_no: 'ZK20261201080000ABCDEF0123',
    trade_no: '2026120122001400000000000001',
    total_amount: '50.00',
    trade_status: 'TRADE_SUCCESS',
    gmt_payment: '2026-12-01 16:00:05',
    notify_time: '2026-12-01 16:00:06',
    subject: '示范考试 报名费',
    charset: 'utf-8',
  };

  it('believes a notify signed with Alipay’s key: amount in fen, Beijing time to UTC', async () => {
    const v = await provider.verifyNotify({ headers: {}, rawBody: alipayNotify(fields, alipay.privateKey) });
    expect(v).toEqual({
      ok: true,
      orderNo: fields.out_trade_no,
      tradeNo: fields.trade_no,
      amount: 5000,
      paid: true,
      paidAt: '2026-12-01T08:00:05.000Z',
    });
    expect(provider.ack(true)).toEqual({ status: 200, contentType: 'text/plain', body: 'success' });
    expect(provider.ack(false).body).toBe('fail');
  });

  it('refuses another key, a changed amount, another app and the old RSA (SHA-1) type', async () => {
    const stranger = rsaPair();
    expect((await provider.verifyNotify({ headers: {}, rawBody: alipayNotify(fields, stranger.privateKey) })).ok).toBe(false);
    const tampered = alipayNotify(fields, alipay.privateKey).replace('total_amount=50.00', 'total_amount=0.01');
    expect(await provider.verifyNotify({ headers: {}, rawBody: tampered })).toMatchObject({ ok: false, reason: '签名验证失败' });
    const otherApp = alipayNotify({ ...fields, app_id: '2021000000000999' }, alipay.privateKey);
    expect(await provider.verifyNotify({ headers: {}, rawBody: otherApp })).toMatchObject({ ok: false, reason: 'app_id 不符' });
    const rsa1 = alipayNotify(fields, alipay.privateKey).replace('sign_type=RSA2', 'sign_type=RSA');
    expect((await provider.verifyNotify({ headers: {}, rawBody: rsa1 })).ok).toBe(false);
  });

  it('makes page-pay and wap-pay URLs for the SDK’s gateway, amount in yuan', async () => {
    const order = {
      orderNo: 'ZK20261201080000ABCDEF0123',
      amount: 5000,
      subject: '报名费',
      expiresAt: '2026-12-01T10:00:00.000Z',
      notifyUrl: 'https://bm.example.cn/api/payment/notify/alipay',
      returnUrl: 'https://bm.example.cn/current-exam',
      clientIp: '1.2.3.4',
    };
    const pc = new URL((await provider.create({ ...order, mobile: false })).payUrl);
    expect(pc.searchParams.get('method')).toBe('alipay.trade.page.pay');
    const biz = JSON.parse(pc.searchParams.get('biz_content') ?? '{}') as Record<string, string>;
    expect(biz).toMatchObject({ out_trade_no: order.orderNo, total_amount: '50.00', time_expire: '2026-12-01 18:00:00' });
    expect(pc.searchParams.get('notify_url')).toBe(order.notifyUrl);
    const wap = new URL((await provider.create({ ...order, mobile: true })).payUrl);
    expect(wap.searchParams.get('method')).toBe('alipay.trade.wap.pay');
  });
});

describe('WeChat Pay API v3 adapter: signed notify, AES-256-GCM resource', () => {
  const platform = rsaPair();
  const merchant = rsaPair();
  const apiV3Key = 'a'.repeat(16) + 'B'.repeat(16);
  const provider = createWechatProvider({
    mchid: '1900000001',
    appid: 'wx0000000000000001',
    serial: 'MERCHANTSERIAL',
    privateKey: merchant.privatePem,
    platformPublicKey: platform.publicPem,
    platformSerial: 'PUB_KEY_ID_0001',
    apiV3Key,
  });
  const trade = {
    orderNo: 'ZK20261201080000ABCDEF0123',
    tradeNo: '4200000000202612010000000001',
    amount: 5000,
    paidAt: '2026-12-01T08:00:05.000Z',
  };

  it('believes a notify signed with the platform key and decrypts its transaction', async () => {
    const n = signWechatNotify(
      trade,
      { privateKey: platform.privateKey, serial: 'PUB_KEY_ID_0001', apiV3Key },
      Date.now(),
      'n0nce0123456789',
    );
    expect(await provider.verifyNotify(n)).toEqual({
      ok: true,
      orderNo: trade.orderNo,
      tradeNo: trade.tradeNo,
      amount: 5000,
      paid: true,
      paidAt: trade.paidAt,
    });
    expect(provider.ack(true).status).toBe(200);
    expect(provider.ack(false).status).toBe(400);
  });

  it('refuses a foreign key, an unknown serial, a changed body, a wrong APIv3 key and an old timestamp', async () => {
    const stranger = rsaPair();
    const keys = { privateKey: platform.privateKey, serial: 'PUB_KEY_ID_0001', apiV3Key };
    const foreign = signWechatNotify(trade, { ...keys, privateKey: stranger.privateKey }, Date.now(), 'n0nce0123456789');
    expect((await provider.verifyNotify(foreign)).ok).toBe(false);
    const serial = signWechatNotify(trade, { ...keys, serial: 'OTHER' }, Date.now(), 'n0nce0123456789');
    expect(await provider.verifyNotify(serial)).toMatchObject({ ok: false, reason: '缺少签名或平台证书序列号不符' });
    const good = signWechatNotify(trade, keys, Date.now(), 'n0nce0123456789');
    expect((await provider.verifyNotify({ ...good, rawBody: good.rawBody.replace('TRANSACTION.SUCCESS', 'TRANSACTION.SUCCES5') })).ok).toBe(
      false,
    );
    const wrongKey = signWechatNotify(trade, { ...keys, apiV3Key: 'c'.repeat(32) }, Date.now(), 'n0nce0123456789');
    expect(await provider.verifyNotify(wrongKey)).toMatchObject({ ok: false, reason: '通知内容无法解密或格式有误' });
    const old = signWechatNotify(trade, keys, Date.now() - 10 * 60_000, 'n0nce0123456789');
    expect(await provider.verifyNotify(old)).toMatchObject({ ok: false, reason: '通知时间戳超出允许范围' });
  });
});

describe('statements and money', () => {
  it('reads Alipay’s 业务明细 (# lines, tab-padded cells), leaving refunds out', () => {
    const text = [
      '#支付宝业务明细查询',
      '#账号：[20881234567890120156]',
      '#起始日期：[2026年12月01日 00:00:00]   终止日期：[2026年12月02日 00:00:00]',
      '#-----------------------------------------业务明细列表----------------------------------------',
      '支付宝交易号,商户订单号,业务类型,商品名称,创建时间,完成时间,门店编号,门店名称,操作员,终端号,对方账户,订单金额（元）,商家实收（元）,支付宝红包（元）,集分宝（元）,支付宝优惠（元）,商家优惠（元）,券核销金额（元）,券名称,商家红包消费金额（元）,卡消费金额（元）,退款批次号/请求号,服务费（元）,分润（元）,备注',
      '2026120122001400000000000001\t,ZK20261201080000ABCDEF0123\t,交易\t,报名费\t,2026-12-01 15:59:50\t,2026-12-01 16:00:05\t,\t,\t,\t,\t,abc***@163.com\t,50.00\t,49.70\t,0.00\t,0.00\t,0.00\t,0.00\t,0.00\t,\t,0.00\t,0.00\t,\t,-0.30\t,0.00\t,',
      '2026120122001400000000000001\t,ZK20261201080000ABCDEF0123\t,退款\t,报名费\t,2026-12-01 15:59:50\t,2026-12-02 09:00:00\t,\t,\t,\t,\t,abc***@163.com\t,-50.00\t,-49.70\t,0.00\t,0.00\t,0.00\t,0.00\t,0.00\t,\t,0.00\t,0.00\t,RF1\t,0.30\t,0.00\t,',
      '#-----------------------------------------业务明细列表结束------------------------------------',
      '#交易合计：1笔，商家实收共49.70元',
    ].join('\r\n');
    const gbk = Buffer.from(new TextEncoder().encode(text));
    const parsed = parseStatement(gbk);
    expect(parsed).toEqual({
      provider: 'alipay',
      lines: [
        {
          orderNo: 'ZK20261201080000ABCDEF0123',
          tradeNo: '2026120122001400000000000001',
          amount: 5000,
          paidAt: '2026-12-01T08:00:05.000Z',
        },
      ],
    });
  });

  it('reads WeChat Pay’s 交易账单 (backtick cells, totals block at the end)', () => {
    const text = [
      '交易时间,公众账号ID,商户号,特约商户号,设备号,微信订单号,商户订单号,用户标识,交易类型,交易状态,付款银行,货币种类,应结订单金额,代金券金额,微信退款单号,商户退款单号,退款金额,充值券退款金额,退款类型,退款状态,商品名称,商户数据包,手续费,费率,订单金额,申请退款金额,费率备注',
      '`2026-12-01 16:00:05,`wx0000000000000001,`1900000001,`0,`,`4200000000202612010000000001,`ZK20261201080000ABCDEF0123,`oUpF8uMuAJO_M2pxb1Q9zNjWeS6o,`NATIVE,`SUCCESS,`OTHERS,`CNY,`50.00,`0.00,`0,`0,`0.00,`0.00,`,`,`报名费,`,`0.30000,`0.60%,`50.00,`0.00,`',
      '总交易单数,应结订单总金额,退款总金额,充值券退款总金额,手续费总金额,订单总金额,申请退款总金额',
      '`1,`50.00,`0.00,`0.00,`0.30000,`50.00,`0.00',
    ].join('\n');
    expect(parseStatement(Buffer.from(text))).toEqual({
      provider: 'wechat',
      lines: [
        {
          orderNo: 'ZK20261201080000ABCDEF0123',
          tradeNo: '4200000000202612010000000001',
          amount: 5000,
          paidAt: '2026-12-01T08:00:05.000Z',
        },
      ],
    });
  });

  it('refuses a file that is no statement, in Chinese', () => {
    expect(() => parseStatement(Buffer.from('a,b,c\n1,2,3'))).toThrow(/无法识别对账单格式/);
  });

  it('money is integer fen: yuan text both ways without floating point', () => {
    expect(fenToYuan(5000)).toBe('50.00');
    expect(fenToYuan(1)).toBe('0.01');
    expect(fenToYuan(123456)).toBe('1234.56');
    expect(yuanToFen('0.1')).toBe(10);
    expect(yuanToFen('19.99')).toBe(1999);
    expect(yuanToFen('¥50.00')).toBe(5000);
    expect(yuanToFen('-49.70')).toBe(-4970);
    expect(yuanToFen('1.005')).toBeNull();
    expect(yuanToFen('abc')).toBeNull();
  });

  it('close-out arithmetic: applicants per post against the opening ratio', () => {
    expect(openingProposal(2, 6, 3)).toEqual({ proposal: 'keep', proposedHeadcount: 2 });
    expect(openingProposal(2, 5, 3)).toEqual({ proposal: 'reduce', proposedHeadcount: 1 });
    expect(openingProposal(3, 7, 3)).toEqual({ proposal: 'reduce', proposedHeadcount: 2 });
    expect(openingProposal(1, 2, 3)).toEqual({ proposal: 'cancel', proposedHeadcount: 0 });
    expect(openingProposal(1, 0, 3)).toEqual({ proposal: 'cancel', proposedHeadcount: 0 });
    expect(openingProposal(5, 0, 0)).toEqual({ proposal: 'keep', proposedHeadcount: 5 });
  });
});
