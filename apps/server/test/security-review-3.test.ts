import { ErrorCode } from '@zhikaoyun/shared';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/lib/app-error';
import { readProof } from '../src/modules/confirmation/waivers/proof';
import { addStaff, adminToken, STAFF_PASSWORD, staffToken } from './helpers/actors';
import { createTestApp, insertOffice, type TestApp } from './helpers/app';
import { bearer, get, registered } from './helpers/candidates';
import { DATABASES } from './helpers/databases';

/**
 * Security review 3: N2 (payment events follow the staff member's units), N3 (the sandbox's
 * statement only to the office's admins, only its orders) and N4 (a waiver proof is what it
 * decodes to). N1 is in sheet-range-bombs and heavy-limits, N5 in permission-matrix.
 */
for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`security review 3 on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp;
    let admin: string;
    let officeId: number;
    /** A paid order of the demo office, its exam and its position's unit. */
    let order: { order_no: string; exam_id: number; unit: string; amount: number };

    beforeAll(async () => {
      t = await createTestApp(kind, {}, { demoStages: true });
      admin = await adminToken(t);
      officeId = (await t.db.kysely.selectFrom('office').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id;
      order = await t.db.kysely
        .selectFrom('payment_order as o')
        .innerJoin('application as a', 'a.id', 'o.application_id')
        .innerJoin('position as p', 'p.id', 'a.position_id')
        .select(['o.order_no', 'o.exam_id', 'p.unit', 'o.amount'])
        .where('o.office_id', '=', officeId)
        .where('o.status', '=', 'paid')
        .orderBy('o.id')
        .executeTakeFirstOrThrow();
    });
    afterAll(async () => t?.close());

    it('N2: a reviewer reads the payment events of their own units only; one of no unit reads none', async () => {
      const at = new Date().toISOString();
      await t.db.kysely
        .insertInto('payment_event')
        .values([
          { office_id: officeId, provider: 'sandbox', order_no: order.order_no, kind: 'refunded', detail: '已退款：测试原因', at },
          // A notify for no order of ours: it belongs to no unit, so to the admins only.
          { office_id: officeId, provider: 'sandbox', order_no: 'ZK-NOT-OURS-1', kind: 'unknown_order', detail: '未知订单', at },
        ])
        .execute();
      const otherUnit = (
        await t.db.kysely
          .selectFrom('position')
          .select('unit')
          .where('exam_id', '=', order.exam_id)
          .where('unit', '!=', order.unit)
          .executeTakeFirstOrThrow()
      ).unit;
      await addStaff(t, officeId, 'ev-own', 'reviewer', [order.unit]);
      await addStaff(t, officeId, 'ev-other', 'reviewer', [otherUnit]);
      await addStaff(t, officeId, 'ev-none', 'reviewer', []);
      const events = async (token: string) => {
        const r = await get(t, `/api/admin/getPaymentEvents?examId=${order.exam_id}`, bearer(token));
        expect(r.body.success, r.body.msg).toBe(true);
        return r.body.data as { orderNo: string; detail: string }[];
      };
      const orders = async (token: string) =>
        new Set(
          (
            (await get(t, `/api/admin/getPaymentList?examId=${order.exam_id}&page=1&pageSize=100`, bearer(token))).body.data.list as {
              orderNo: string;
            }[]
          ).map((o) => o.orderNo),
        );

      const all = await events(admin);
      expect(all.map((e) => e.orderNo)).toEqual(expect.arrayContaining([order.order_no, 'ZK-NOT-OURS-1']));

      const own = await staffToken(t, 'ev-own');
      const ownEvents = await events(own);
      expect(ownEvents.map((e) => e.orderNo)).toContain(order.order_no);
      expect(ownEvents.map((e) => e.orderNo)).not.toContain('ZK-NOT-OURS-1');
      // The same rule as the order list: every event it reads is of an order that list shows.
      const ownOrders = await orders(own);
      for (const e of ownEvents) expect(ownOrders.has(e.orderNo)).toBe(true);

      const other = await events(await staffToken(t, 'ev-other'));
      expect(JSON.stringify(other)).not.toContain(order.order_no);
      expect(JSON.stringify(other)).not.toContain('ZK-NOT-OURS-1');
      expect(await events(await staffToken(t, 'ev-none'))).toEqual([]);
    });

    it('N3: the sandbox statement answers only an admin of the office, with that office’s orders only', async () => {
      const paidAt = '2026-03-10T04:00:00.000Z'; // 12:00 in Beijing on 2026-03-10
      // The demo's trade of the order (made when it was seeded), paid on a day of its own here.
      const trade = { trade_no: 'SB20260310SECREVIEW3', status: 'paid', paid_at: paidAt, next_notify_at: null };
      const updated = await t.db.kysely.updateTable('sandbox_trade').set(trade).where('order_no', '=', order.order_no).executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0)
        await t.db.kysely
          .insertInto('sandbox_trade')
          .values({
            ...trade,
            order_no: order.order_no,
            amount: order.amount,
            subject: '测试',
            notify_url: 'http://127.0.0.1/n',
            return_url: 'http://127.0.0.1/r',
            created_at: paidAt,
            expires_at: paidAt,
          })
          .execute();
      const url = '/api/payment/sandbox/statement?date=2026-03-10';
      const statement = (headers: Record<string, string> = {}, query = '') =>
        t.app.inject({ method: 'GET', url: `${url}${query}`, headers });

      const anonymous = await statement();
      expect(anonymous.json()).toMatchObject({ success: false, errorCode: ErrorCode.Unauthorized });
      expect(anonymous.body).not.toContain(order.order_no);
      const candidate = await registered(t);
      expect((await statement(bearer(candidate.token))).json()).toMatchObject({ success: false, errorCode: ErrorCode.Unauthorized });
      await addStaff(t, officeId, 'st-reviewer', 'reviewer', [order.unit]);
      expect((await statement(bearer(await staffToken(t, 'st-reviewer')))).json()).toMatchObject({
        success: false,
        errorCode: ErrorCode.Forbidden,
      });

      const mine = await statement(bearer(admin));
      expect(mine.statusCode).toBe(200);
      expect(mine.headers['content-type']).toContain('text/csv');
      expect(mine.headers['cache-control']).toBe('private, no-store');
      expect(mine.body).toContain(`${order.order_no},SB20260310SECREVIEW3`);

      // Another office's admin: its own (empty) statement, never the demo office's orders.
      const otherId = await insertOffice(t, 'sr3other');
      await addStaff(t, otherId, 'sr3admin', 'admin');
      const otherAdmin = await staffToken(t, 'sr3admin', STAFF_PASSWORD, '?officeCode=sr3other');
      const theirs = await statement(bearer(otherAdmin), '&officeCode=sr3other');
      expect(theirs.statusCode).toBe(200);
      expect(theirs.body).toBe('商户订单号,交易号,金额（元）,支付时间\n');
      // The demo admin's session names another office than the one asked for: refused.
      expect((await statement(bearer(admin), '&officeCode=sr3other')).json()).toMatchObject({ success: false });
      expect((await statement(bearer(otherAdmin))).json()).toMatchObject({ success: false });
    });
  });
}

describe('N4: a fee waiver proof is what it decodes to', () => {
  const refusal = async (data: Buffer) => {
    try {
      await readProof(data);
    } catch (err) {
      if (err instanceof AppError) return err.message;
      throw err;
    }
    throw new Error('the proof was accepted');
  };

  it('refuses HTML behind a JPEG’s first bytes, an SVG, and a PDF that does not parse', async () => {
    const html = Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
      Buffer.from('<html><script>alert(document.cookie)</script></html>'),
    ]);
    expect(await refusal(html)).toBe('证明材料须为 JPG、PNG 图片或 PDF 文件');
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200"><script>alert(1)</script><rect width="200" height="200"/></svg>',
    );
    expect(await refusal(svg)).toBe('证明材料须为 JPG、PNG 图片或 PDF 文件');
    expect(await refusal(Buffer.from('%PDF-1.7\n<html><script>alert(1)</script></html>'))).toBe(
      '无法读取该证明材料，请重新拍照或扫描后上传 JPG、PNG 图片或 PDF 文件',
    );
    expect(await refusal(Buffer.from('just text'))).toBe('证明材料须为 JPG、PNG 图片或 PDF 文件');
  });

  it('takes a real JPEG, stored re-encoded without its metadata or anything glued after it', async () => {
    const jpeg = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#e8d5b0' } })
      .jpeg()
      .withExif({ IFD0: { Copyright: 'GPS-SECRET-12345', Artist: '张三' } })
      .toBuffer();
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    const glued = Buffer.concat([jpeg, Buffer.from('<html><script>alert(1)</script></html>')]);
    const proof = await readProof(glued);
    expect(proof.mime).toBe('image/jpeg');
    expect(proof.data.equals(jpeg)).toBe(false);
    const meta = await sharp(proof.data).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 320, height: 240 });
    expect(meta.exif).toBeUndefined();
    expect(proof.data.toString('latin1')).not.toContain('GPS-SECRET');
    expect(proof.data.toString('latin1')).not.toContain('<script>');
  });

  it('takes a real PDF, as pdf-lib writes it again (nothing after the document survives)', async () => {
    const doc = await PDFDocument.create();
    doc.addPage().drawText('dibao 2026');
    const pdf = Buffer.from(await doc.save());
    const proof = await readProof(Buffer.concat([pdf, Buffer.from('\n<html><script>alert(1)</script></html>')]));
    expect(proof.mime).toBe('application/pdf');
    expect(proof.data.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(proof.data.toString('latin1')).not.toContain('<script>');
    expect((await PDFDocument.load(proof.data)).getPageCount()).toBe(1);
  });
});
