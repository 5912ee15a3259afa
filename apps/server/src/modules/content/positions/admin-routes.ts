import multipart from '@fastify/multipart';
import {
  envelopeSchema,
  ErrorCode,
  examIdQuerySchema,
  officeQuerySchema,
  ok,
  positionIdQuerySchema,
  positionImportResultSchema,
  positionInputSchema,
  positionSchema,
} from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readUploadedFile } from '../../../lib/upload';
import { STAFF_ROUTE } from '../../access/console-deps';
import { attachment } from '../../../lib/download';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A position workbook of a few thousand rows is well under this. */
const SHEET_MAX_BYTES = 5 * 1024 * 1024;

/** Console: positions of an exam, one by one or from/to Excel. */
const positionsAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.positionsAdmin;
  await app.register(multipart, { limits: { fileSize: SHEET_MAX_BYTES, files: 1, fields: 5, parts: 6 } });
  const tags = ['console'];
  const q = officeQuerySchema;

  app.get(
    '/getPositionList',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '考试的全部岗位（含报名人数）',
        tags,
        querystring: examIdQuerySchema.extend(q.shape),
        response: { 200: envelopeSchema(z.array(positionSchema)) },
      },
    },
    async (request) => ok(await service.list(request.office.id, request.query.examId)),
  );
  app.get(
    '/getUnitList',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '本机构各考试岗位中的全部招聘单位（审核范围从中选择）',
        tags,
        querystring: q,
        response: { 200: envelopeSchema(z.array(z.string())) },
      },
    },
    async (request) => ok(await service.units(request.office.id)),
  );
  app.post(
    '/savePosition',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '新建或修改岗位',
        tags,
        querystring: q,
        body: positionInputSchema,
        response: { 200: envelopeSchema(z.object({ id: z.number() })) },
      },
    },
    async (request) => ok(await service.save(request.staff, request.body, request.ip)),
  );
  app.post(
    '/deletePosition',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '删除岗位（仅限无人报考）',
        tags,
        querystring: q,
        body: positionIdQuerySchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await service.remove(request.staff, request.body.id, request.ip);
      return ok(null);
    },
  );
  app.post(
    '/importPositions',
    {
      config: STAFF_ROUTE,
      bodyLimit: SHEET_MAX_BYTES + 64 * 1024,
      schema: {
        summary: '从 Excel 导入岗位（multipart，字段 file；有错误时不导入并逐行说明）',
        tags,
        querystring: examIdQuerySchema.extend(q.shape),
        consumes: ['multipart/form-data'],
        response: { 200: envelopeSchema(positionImportResultSchema) },
      },
    },
    async (request) => {
      const { data } = await readUploadedFile(request, {
        code: ErrorCode.Validation,
        missing: '请选择要导入的岗位表',
        tooLarge: `岗位表不能超过 ${SHEET_MAX_BYTES / 1024 / 1024} MB`,
        empty: '岗位表文件是空的，请重新选择',
      });
      return ok(await service.importSheet(request.staff, request.query.examId, data, request.ip));
    },
  );
  app.get(
    '/getPositionTemplate',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '岗位表导入模板（.xlsx：表头、示例行和“说明”工作表；考试尚无岗位时也可下载）',
        tags,
        querystring: examIdQuerySchema.extend(q.shape),
      },
    },
    async (request, reply) => {
      const file = await service.templateSheet(request.office.id, request.query.examId);
      return reply
        .header('content-type', XLSX_TYPE)
        .header(
          'content-disposition',
          attachment(`position-template-${request.query.examId}`, `岗位表模板-${request.query.examId}`, 'xlsx'),
        )
        .send(file);
    },
  );
  app.get(
    '/exportPositions',
    {
      config: STAFF_ROUTE,
      schema: { summary: '导出岗位表（.xlsx，可作导入模板）', tags, querystring: examIdQuerySchema.extend(q.shape) },
    },
    async (request, reply) => {
      const file = await service.exportSheet(request.staff, request.query.examId, request.ip);
      return reply
        .header('content-type', XLSX_TYPE)
        .header('content-disposition', attachment(`positions-${request.query.examId}`, `岗位表-${request.query.examId}`, 'xlsx'))
        .send(file);
    },
  );
};

export default positionsAdminRoutes;
