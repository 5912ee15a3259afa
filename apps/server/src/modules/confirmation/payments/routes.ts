import {
  applyStatusSchema,
  createdPaymentSchema,
  envelopeSchema,
  ErrorCode,
  examIdBodySchema,
  examIdQuerySchema,
  formatFen,
  officeQuerySchema,
  ok,
  paymentStatusSchema,
  PAYMENT_PROVIDERS,
  sandboxPaySchema,
  switchPositionSchema,
  zonedDateTime,
} from '@zhikaoyun/shared';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../../lib/app-error';
import { STAFF_ROUTE } from '../../access/console-deps';
import { opsCounters } from '../../../lib/ops-counters';

const MOBILE = /Mobile|Android|iPhone|iPad|HarmonyOS/i;

/** The candidate's confirmation calls: the fee's status, paying, 我已支付, one-click confirm, switch or refund. */
export const paymentsCandidateRoutes: FastifyPluginAsyncZod = async (app) => {
  const { payments, applications, closeout } = app.services;
  const tags = ['payments'];
  const config = { auth: 'candidate' as const };
  const q = officeQuerySchema;

  app.post(
    '/createPayment',
    {
      config,
      schema: {
        summary: '缴纳报名费：得到可支付的订单（已有未过期订单时返回它；金额按下单时的考试报名费，单位分）',
        tags,
        querystring: q,
        body: examIdBodySchema,
        response: { 200: envelopeSchema(createdPaymentSchema) },
      },
    },
    async (request) =>
      ok(
        await payments.create(request.office.id, request.candidate.subjectId, request.body.examId, {
          mobile: MOBILE.test(request.headers['user-agent'] ?? ''),
          ip: request.ip,
        }),
      ),
  );
  app.get(
    '/getPaymentStatus',
    {
      config,
      schema: {
        summary: '报名费状态：none / unpaid / paid / waived / refunded，金额（分）、订单号、支付时间、确认截止时间',
        tags,
        querystring: examIdQuerySchema.extend(q.shape),
        response: { 200: envelopeSchema(paymentStatusSchema) },
      },
    },
    async (request) => ok(await payments.status(request.office.id, request.candidate.subjectId, request.query.examId)),
  );
  app.post(
    '/checkPayment',
    {
      config,
      schema: {
        summary: '我已支付：向支付渠道查询订单结果并入账，返回报名费状态',
        tags,
        querystring: q,
        body: examIdBodySchema,
        response: { 200: envelopeSchema(paymentStatusSchema) },
      },
    },
    async (request) => ok(await payments.check(request.office.id, request.candidate.subjectId, request.body.examId)),
  );
  app.post(
    '/confirmApplication',
    {
      config,
      schema: {
        summary: '确认报名（本考试无需缴费时一键确认）',
        tags,
        querystring: q,
        body: examIdBodySchema,
        response: { 200: envelopeSchema(applyStatusSchema) },
      },
    },
    async (request) => ok(await applications.confirm(request.office.id, request.candidate.subjectId, request.body.examId)),
  );
  app.post(
    '/switchPosition',
    {
      config,
      schema: {
        summary: '改报：所报岗位被取消后，在改报期内改报本考试其他符合条件的岗位（已缴费用随报名转移）',
        tags,
        querystring: q,
        body: switchPositionSchema,
        response: { 200: envelopeSchema(applyStatusSchema) },
      },
    },
    async (request) => {
      await closeout.switchPosition(
        request.office.id,
        request.candidate.subjectId,
        request.body.examId,
        request.body.positionId,
        request.office.timeZone,
      );
      return ok(await applications.status(request.office.id, request.candidate.subjectId, request.body.examId));
    },
  );
  app.post(
    '/optOutRefund',
    {
      config,
      schema: {
        summary: '所报岗位被取消后放弃改报，取消报名并退还报名费',
        tags,
        querystring: q,
        body: examIdBodySchema,
        response: { 200: envelopeSchema(applyStatusSchema) },
      },
    },
    async (request) => {
      await closeout.optOut(request.office.id, request.candidate.subjectId, request.body.examId);
      return ok(await applications.status(request.office.id, request.candidate.subjectId, request.body.examId));
    },
  );
};

/** Reads any body as the text it was sent as: notifies are verified over the exact bytes. */
function rawBodies(app: FastifyInstance) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => done(null, body));
}

/** Provider-facing routes (no office, no session): the notify of each provider. */
export const paymentsNotifyRoutes: FastifyPluginAsyncZod = async (app) => {
  const { payments } = app.services;
  rawBodies(app);
  app.post(
    '/payment/notify/:provider',
    {
      config: { tenant: false },
      schema: {
        summary: '支付渠道异步通知（验签后入账；按渠道协议应答）',
        tags: ['payments'],
        params: z.object({ provider: z.enum(PAYMENT_PROVIDERS, { message: '未知的支付渠道' }) }),
      },
    },
    async (request, reply) => {
      const rawBody = typeof request.body === 'string' ? request.body : '';
      const provider = app.services.paymentProviders.get(request.params.provider);
      // A provider this office does not use: nothing to record, nothing to retry.
      if (!provider) return reply.code(404).type('text/plain').send('fail');
      let ack;
      try {
        ack = await payments.notify(request.params.provider, { headers: request.headers, rawBody });
      } catch (err) {
        // Not recorded (the database refused, the process is stopping): the provider must retry.
        request.log.error({ err: { message: err instanceof Error ? err.message : String(err) } }, 'payment notify not recorded');
        ack = provider.ack(false);
        if (ack.status < 500) ack = { ...ack, status: 500 };
      }
      opsCounters.paymentNotifies[ack.status >= 500 ? 'error' : ack.status >= 400 ? 'refused' : 'accepted'] += 1;
      return reply.code(ack.status).type(ack.contentType).send(ack.body);
    },
  );
};

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The sandbox provider's own pages: its cashier (a page of the "provider", not of our site) and
 * the button that pays, then its statement for reconciliation. Registered only where the sandbox is.
 */
export const sandboxRoutes: FastifyPluginAsyncZod = async (app) => {
  const sandbox = app.services.sandbox;
  if (!sandbox) return;
  rawBodies(app);
  const tags = ['payments'];

  app.get(
    '/payment/sandbox/cashier',
    { config: { tenant: false }, schema: { summary: '模拟支付收银台', tags, querystring: sandboxPaySchema } },
    async (request, reply) => {
      const c = await sandbox.cashier(request.query.orderNo);
      const payable = c.state === 'unpaid';
      const note =
        c.state === 'paid'
          ? '该订单已支付，支付结果正在通知报名系统。'
          : c.state === 'closed'
            ? '订单已关闭或已超过支付期限，请返回报名系统重新发起支付。'
            : `请在 ${zonedDateTime(c.expiresAt)}（北京时间）前完成支付。`;
      const html = `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>模拟支付收银台</title><style>
body{margin:0;font:16px/1.6 -apple-system,"PingFang SC","Microsoft YaHei",sans-serif;background:#f2f4f7;color:#1f2329}
main{max-width:420px;margin:0 auto;padding:24px 16px}
.card{background:#fff;border-radius:12px;padding:24px;box-shadow:0 1px 3px rgba(0,0,0,.08)}
.tag{display:inline-block;background:#fff7e6;color:#ad6800;border:1px solid #ffd591;border-radius:4px;padding:0 8px;font-size:13px}
h1{font-size:18px;margin:12px 0 4px}.amount{font-size:36px;font-weight:600;margin:16px 0;color:#1f2329}
dl{display:grid;grid-template-columns:auto 1fr;gap:4px 12px;font-size:14px;color:#646a73;margin:0 0 20px}dd{margin:0;color:#1f2329;word-break:break-all}
button{width:100%;height:48px;border:0;border-radius:8px;background:#1677ff;color:#fff;font-size:17px}
a{display:block;text-align:center;margin-top:16px;color:#1677ff}p{font-size:14px;color:#646a73}
</style></head><body><main><div class="card"><span class="tag">模拟支付 · 不产生真实扣款</span>
<h1>${escape(c.subject)}</h1><div class="amount">${escape(formatFen(c.amount))}</div>
<dl><dt>订单号</dt><dd>${escape(c.orderNo)}</dd><dt>收款方</dt><dd>智考云（模拟）</dd></dl><p>${escape(note)}</p>
${payable ? `<form method="post" action="/api/payment/sandbox/pay"><input type="hidden" name="orderNo" value="${escape(c.orderNo)}"><button type="submit">确认支付 ${escape(formatFen(c.amount))}</button></form>` : ''}
<a href="${escape(c.returnUrl)}">返回报名系统</a></div></main></body></html>`;
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
    },
  );

  app.post(
    '/payment/sandbox/pay',
    {
      config: { tenant: false },
      schema: { summary: '模拟支付：付款（随后异步发送签名通知，未确认则按计划重试）', tags },
    },
    async (request, reply) => {
      const text = typeof request.body === 'string' ? request.body : '';
      const form = (request.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded');
      let raw: unknown;
      try {
        raw = form ? Object.fromEntries(new URLSearchParams(text)) : JSON.parse(text || '{}');
      } catch {
        raw = {};
      }
      const parsed = sandboxPaySchema.safeParse(raw);
      if (!parsed.success) throw new AppError(ErrorCode.Validation, '订单号有误');
      const { returnUrl } = await sandbox.pay(parsed.data.orderNo);
      // The cashier's form goes back to the site, as a provider's page does; a script call gets JSON.
      return form ? reply.redirect(returnUrl, 303) : ok({ status: 'paid' as const, returnUrl });
    },
  );

  app.get(
    '/payment/sandbox/statement',
    {
      // The office's own paid orders, to its admins only (security review 3, N3: it answered
      // anyone with every office's orders). A provider's statement is the merchant's, behind its login.
      config: STAFF_ROUTE,
      schema: {
        summary: '模拟支付对账单（CSV，按北京时间日期；本机构管理员，仅本机构订单）',
        tags,
        querystring: z
          .object({ date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { message: '日期格式应为 YYYY-MM-DD' }) })
          .extend(officeQuerySchema.shape),
      },
    },
    async (request, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('cache-control', 'private, no-store')
        .header('content-disposition', `attachment; filename="sandbox-${request.query.date}.csv"`)
        .send(await sandbox.statement(request.staff.officeId, request.query.date)),
  );
};
