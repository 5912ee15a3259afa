import multipart from '@fastify/multipart';
import {
  arrangementOverviewSchema,
  arrangeResultSchema,
  ErrorCode,
  arrangeSeatsSchema,
  chooseSiteCitySchema,
  examIdQuerySchema,
  examSiteCitiesSchema,
  findSeatedQuerySchema,
  seatedCandidateSchema,
  siteCityChoiceSchema,
  envelopeSchema,
  examIdOnlyQuerySchema,
  examIdBodySchema,
  lateArrangeResultSchema,
  examSiteInputSchema,
  examSubjectInputSchema,
  officeQuerySchema,
  ok,
  saveExamRoomSchema,
  siteImportResultSchema,
} from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../../lib/app-error';
import { XLSX_CONTENT_TYPE, xlsxAttachment } from '../../../lib/download';
import { readUploadedFile } from '../../../lib/upload';
import { STAFF_ROUTE } from '../../access/console-deps';

/** A site workbook of a few thousand rows is well under this. */
const SHEET_MAX_BYTES = 2 * 1024 * 1024;

const idResult = envelopeSchema(z.object({ id: z.number().int() }));

/** Subjects, sites and rooms, seat arrangement: under /api/admin, for the office's admins. */
const arrangementAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.arrangement;
  const tags = ['console'];
  const q = officeQuerySchema;
  await app.register(multipart, { limits: { fileSize: SHEET_MAX_BYTES, files: 1, fields: 5, parts: 6 } });
  app.get(
    '/getExamSubjects',
    { config: STAFF_ROUTE, schema: { summary: '考试科目列表', tags, querystring: examIdOnlyQuerySchema.extend(q.shape) } },
    async (request) => ok(await service.listSubjects(request.staff, request.query.examId)),
  );
  app.post(
    '/saveExamSubject',
    {
      config: STAFF_ROUTE,
      schema: { summary: '新增或修改考试科目', tags, querystring: q, body: examSubjectInputSchema, response: { 200: idResult } },
    },
    async (request) => ok(await service.saveSubject(request.staff, request.body, request.ip)),
  );
  app.get(
    '/getExamSites',
    { config: STAFF_ROUTE, schema: { summary: '考点及其考场', tags, querystring: examIdOnlyQuerySchema.extend(q.shape) } },
    async (request) => ok(await service.listSites(request.staff, request.query.examId)),
  );
  app.post(
    '/saveExamSite',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '新增或修改考点（考场编号 01、02……）',
        tags,
        querystring: q,
        body: examSiteInputSchema,
        response: { 200: idResult },
      },
    },
    async (request) => ok(await service.saveSite(request.staff, request.body, request.ip)),
  );
  app.post(
    '/saveExamRoom',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '修改考场座位数（准考证发布前；不少于已排到的座位号）',
        tags,
        querystring: q,
        body: saveExamRoomSchema,
        response: { 200: idResult },
      },
    },
    async (request) => ok(await service.saveRoom(request.staff, request.body, request.ip)),
  );
  app.get(
    '/getExamSiteTemplate',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '考点表导入模板（.xlsx：导入读取的表头和“说明”工作表）',
        tags,
        querystring: examIdOnlyQuerySchema.extend(q.shape),
      },
    },
    async (request, reply) => {
      const file = await service.siteTemplate(request.staff, request.query.examId);
      return reply
        .header('Content-Type', XLSX_CONTENT_TYPE)
        .header('Content-Disposition', xlsxAttachment(`site-template-${request.query.examId}`, `考点表模板-${request.query.examId}`))
        .send(file);
    },
  );
  app.post(
    '/importExamSites',
    {
      config: STAFF_ROUTE,
      bodyLimit: SHEET_MAX_BYTES + 64 * 1024,
      schema: {
        summary: '从 Excel 导入考点（multipart，字段 examId、file；列 考点名称、地址、考场数、每场座位数、城市；有错误时不导入并逐行说明）',
        tags,
        querystring: q.extend({ examId: z.string().optional() }),
        consumes: ['multipart/form-data'],
        response: { 200: envelopeSchema(siteImportResultSchema) },
      },
    },
    async (request) => {
      const { data, fields } = await readUploadedFile(request, {
        code: ErrorCode.Validation,
        missing: '请选择要导入的考点表',
        tooLarge: `考点表不能超过 ${SHEET_MAX_BYTES / 1024 / 1024} MB`,
        empty: '考点表文件是空的，请重新选择',
      });
      // The exam may come as a form field (sent before the file) or in the query, as other imports take it.
      const examId = examIdOnlyQuerySchema.safeParse({ examId: fields.examId ?? request.query.examId });
      if (!examId.success) throw new AppError(ErrorCode.Validation, '请选择考试');
      return ok(await service.importSites(request.staff, examId.data.examId, data, request.ip));
    },
  );
  app.get(
    '/getArrangement',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '编排概况：考点、考场、座位数和已编排人数',
        tags,
        querystring: examIdOnlyQuerySchema.extend(q.shape),
        response: { 200: envelopeSchema(arrangementOverviewSchema) },
      },
    },
    async (request) => ok(await service.overview(request.staff, request.query.examId)),
  );
  app.get(
    '/findSeatedCandidates',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '按准考证号或姓名查找已编排的考生及其座位（调动座位用）',
        tags,
        querystring: findSeatedQuerySchema.extend(q.shape),
        response: { 200: envelopeSchema(z.array(seatedCandidateSchema)) },
      },
    },
    async (request) => ok(await service.findSeated(request.staff, request.query.examId, request.query.q)),
  );
  app.post(
    '/arrangeSeats',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '编排考场：按种子随机、同岗位不相邻、一个考场一场一科；座位不足时不做任何改动',
        tags,
        querystring: q,
        body: arrangeSeatsSchema,
        response: { 200: envelopeSchema(arrangeResultSchema) },
      },
    },
    async (request) => ok(await service.arrangeSeats(request.staff, request.body, request.ip)),
  );
  app.post(
    '/arrangeLateSeats',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '补排：准考证发布后新确认（或改报后）的考生补排座位并生成准考证号，其他考生不动',
        tags,
        querystring: q,
        body: examIdBodySchema,
        response: { 200: envelopeSchema(lateArrangeResultSchema) },
      },
    },
    async (request) => ok(await service.arrangeLate(request.staff, request.body.examId, request.ip)),
  );
};

export default arrangementAdminRoutes;

/** 考点城市 for candidates: the cities on offer, and their own choice. */
export const siteCityRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.arrangement;
  const tags = ['arrangement'];
  app.get(
    '/getExamSiteCities',
    {
      schema: {
        summary: '考试的考点城市（考试允许选择考点城市时）',
        tags,
        querystring: examIdQuerySchema.extend(officeQuerySchema.shape),
        response: { 200: envelopeSchema(examSiteCitiesSchema) },
      },
    },
    async (request) => ok(await service.siteCities(request.office.id, request.query.examId)),
  );
  app.get(
    '/getMySiteCity',
    {
      config: { auth: 'candidate' as const },
      schema: {
        summary: '本人报名的考点城市选择',
        tags,
        querystring: examIdQuerySchema.extend(officeQuerySchema.shape),
        response: { 200: envelopeSchema(siteCityChoiceSchema) },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'private, no-store');
      return ok(await service.myCity(request.office.id, request.candidate.subjectId, request.query.examId));
    },
  );
  app.post(
    '/chooseSiteCity',
    {
      config: { auth: 'candidate' as const },
      schema: {
        summary: '选择或修改考点城市（审核通过后、编排考场前）',
        tags,
        querystring: officeQuerySchema,
        body: chooseSiteCitySchema,
        response: { 200: envelopeSchema(z.object({ city: z.string() })) },
      },
    },
    async (request) => ok(await service.chooseCity(request.office.id, request.candidate.subjectId, request.body)),
  );
};
