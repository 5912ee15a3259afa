import multipart from '@fastify/multipart';
import {
  envelopeSchema,
  idQuerySchema,
  officeQuerySchema,
  ok,
  reviewFeeWaiverSchema,
  WAIVER_PROOF_MAX_BYTES,
  waiverApplyFieldsSchema,
  waiverItemSchema,
  waiverListQuerySchema,
  ErrorCode,
} from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../../lib/app-error';
import { STAFF_ROUTE } from '../../access/console-deps';

/** The candidate's fee-waiver request (multipart: examId, category, file proof). */
export const waiversCandidateRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.waivers;
  await app.register(multipart, { limits: { fileSize: WAIVER_PROOF_MAX_BYTES, files: 1, fields: 5, parts: 6 } });
  app.post(
    '/applyFeeWaiver',
    {
      config: { auth: 'candidate' },
      schema: {
        summary: '申请减免报名费（multipart：examId、category，文件 proof：JPG、PNG 或 PDF，不超过 5 MB）',
        tags: ['payments'],
        querystring: officeQuerySchema,
        consumes: ['multipart/form-data'],
        response: { 200: envelopeSchema(z.object({ id: z.number().int() })) },
      },
    },
    async (request) => {
      if (!request.isMultipart()) throw new AppError(ErrorCode.Validation, '请上传证明材料');
      const fields: Record<string, string> = {};
      let proof: Buffer | null = null;
      try {
        for await (const part of request.parts()) {
          if (part.type === 'file') {
            const data = await part.toBuffer();
            if (part.fieldname === 'proof') proof = data;
          } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        }
      } catch (err) {
        if (err instanceof AppError) throw err;
        throw new AppError(ErrorCode.Validation, '证明材料不能超过 5 MB');
      }
      const parsed = waiverApplyFieldsSchema.safeParse(fields);
      if (!parsed.success) throw new AppError(ErrorCode.Validation, parsed.error.issues[0]?.message ?? '请选择减免类别');
      if (!proof || proof.length === 0) throw new AppError(ErrorCode.Validation, '请上传证明材料');
      return ok(await service.apply(request.office.id, request.candidate.subjectId, parsed.data.examId, parsed.data.category, proof));
    },
  );
};

/** The console's waiver queue, proof and decision, under /api/admin. */
export const waiversAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.waivers;
  const tags = ['console'];
  const q = officeQuerySchema;
  app.get(
    '/getFeeWaiverList',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '报名费减免申请（按考试、状态筛选）',
        tags,
        querystring: waiverListQuerySchema.extend(q.shape),
        response: { 200: envelopeSchema(z.object({ list: z.array(waiverItemSchema), total: z.number().int() })) },
      },
    },
    async (request) => ok(await service.list(request.staff, request.query)),
  );
  app.get(
    '/getFeeWaiverProof',
    { config: STAFF_ROUTE, schema: { summary: '查看减免证明材料（留痕）', tags, querystring: idQuerySchema.extend(q.shape) } },
    async (request, reply) => {
      const file = await service.proof(request.staff, request.query.id, request.ip);
      return reply
        .header('Content-Type', file.mime)
        .header('Cache-Control', 'no-store')
        .header('Content-Disposition', 'inline')
        .send(file.data);
    },
  );
  app.post(
    '/reviewFeeWaiver',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '审核减免申请：通过（报名即确认）或不通过并写明原因（考生仍可在确认期内缴费）',
        tags,
        querystring: q,
        body: reviewFeeWaiverSchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await service.review(request.staff, request.body.waiverId, request.body.decision, request.body.reason, request.ip);
      return ok(null);
    },
  );
};
