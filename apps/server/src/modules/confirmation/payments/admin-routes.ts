import multipart from '@fastify/multipart';
import {
  applyStatementLineSchema,
  envelopeSchema,
  ErrorCode,
  examIdOnlyQuerySchema,
  officeQuerySchema,
  ok,
  ORDER_STATUSES,
  paymentEventSchema,
  paymentListQuerySchema,
  paymentListSchema,
  reconciliationSchema,
  refundPaymentSchema,
} from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readUploadedFile } from '../../../lib/upload';
import { STAFF_ROUTE } from '../../access/console-deps';
import { attachment } from '../../../lib/download';

/** A statement of a busy month stays well under this. */
const STATEMENT_MAX_BYTES = 20 * 1024 * 1024;

/** The console's payment calls, under /api/admin: list with totals, export, refund, events, reconciliation. */
const paymentsAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.paymentsAdmin;
  await app.register(multipart, { limits: { fileSize: STATEMENT_MAX_BYTES, files: 1, fields: 5, parts: 6 } });
  const tags = ['console'];
  const q = officeQuerySchema;

  app.get(
    '/getPaymentList',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '缴费记录（按考试、状态筛选；sum 为筛选结果的金额合计，单位分）',
        tags,
        querystring: paymentListQuerySchema.extend(q.shape),
        response: { 200: envelopeSchema(paymentListSchema) },
      },
    },
    async (request) => ok(await service.list(request.staff, request.query)),
  );
  app.get(
    '/exportPayments',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '导出缴费记录（.xlsx）',
        tags,
        querystring: examIdOnlyQuerySchema.extend({ status: z.enum(ORDER_STATUSES).optional() }).extend(q.shape),
      },
    },
    async (request, reply) => {
      const file = await service.export(request.staff, request.query, request.office.timeZone, request.ip);
      return reply
        .header('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('Content-Disposition', attachment(`payments-${request.query.examId}`, `缴费记录-${request.query.examId}`, 'xlsx'))
        .send(file);
    },
  );
  app.post(
    '/refundPayment',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '退费（已确认的报名随之取消；同一订单只退一次，留痕）',
        tags,
        querystring: q,
        body: refundPaymentSchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await service.refund(request.staff, request.body.orderNo, request.body.reason, request.ip);
      return ok(null);
    },
  );
  app.get(
    '/getPaymentEvents',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '支付异常与自动处理记录（验签失败、金额不符、重复支付、逾期支付、退款）',
        tags,
        querystring: examIdOnlyQuerySchema.extend(q.shape),
        response: { 200: envelopeSchema(z.array(paymentEventSchema)) },
      },
    },
    async (request) => ok(await service.events(request.staff, request.query.examId)),
  );
  app.post(
    '/reconcileStatement',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '上传支付渠道对账单（支付宝业务明细、微信支付交易账单或模拟支付对账单，multipart 字段 file）并比对',
        tags,
        querystring: q,
        consumes: ['multipart/form-data'],
        response: { 200: envelopeSchema(reconciliationSchema) },
      },
    },
    async (request) => {
      const file = await readUploadedFile(request, {
        code: ErrorCode.Validation,
        missing: '请选择对账单文件',
        tooLarge: '对账单不能超过 20 MB，请按日下载后分批上传',
        empty: '对账单是空文件',
      });
      return ok(await service.reconcile(request.staff, file.data, request.office.timeZone, request.ip));
    },
  );
  app.post(
    '/applyStatementLine',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '对账补记：支付渠道已收款而本系统未入账的订单，向渠道查询确认后入账（留痕）',
        tags,
        querystring: q,
        body: applyStatementLineSchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await service.applyStatementLine(request.staff, request.body.provider, request.body.orderNo, request.ip);
      return ok(null);
    },
  );
};

export default paymentsAdminRoutes;
