import multipart from '@fastify/multipart';
import {
  envelopeSchema,
  examIdOnlyQuerySchema,
  examIdQuerySchema,
  myStagesSchema,
  officeQuerySchema,
  ok,
  publishStageSchema,
  recordStageResultsSchema,
  saveStageWeightSchema,
  scoreImportResultSchema,
  stageBoardSchema,
  stageListQuerySchema,
  stageListSchema,
} from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readSheetUpload, sheetImportQuery } from '../../../lib/upload';
import { xlsxAttachment } from '../../../lib/download';
import { cacheKey } from '../../../plugins/public-cache';
import { STAFF_ROUTE } from '../../access/console-deps';

/** An interview sheet has a few columns and at most a few thousand rows. */
const SHEET_MAX_BYTES = 5 * 1024 * 1024;

/** The later stages in the console: 资格复审, 面试成绩, 综合成绩, 体检, 拟录用, and their publishing. */
export const stagesAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.stages;
  const tags = ['console'];
  const q = officeQuerySchema;
  await app.register(multipart, { limits: { fileSize: SHEET_MAX_BYTES, files: 1, fields: 5, parts: 6 } });

  app.get(
    '/getStageBoard',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '后续环节：面试名单考生的资格复审、面试成绩、综合成绩与排名、体检与拟录用',
        tags,
        querystring: examIdOnlyQuerySchema.extend(q.shape),
        response: { 200: envelopeSchema(stageBoardSchema) },
      },
    },
    async (request) => ok(await service.board(request.staff, request.query.examId)),
  );
  app.post(
    '/saveStageWeight',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '设置面试成绩在综合成绩中所占比例（百分比，其余为笔试）',
        tags,
        querystring: q,
        body: saveStageWeightSchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await service.saveWeight(request.staff, request.body, request.ip);
      return ok(null);
    },
  );
  app.post(
    '/recordStageResults',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '记录资格复审或体检结果（合格、不合格、放弃；按准考证号，一次全部保存或都不保存）',
        tags,
        querystring: q,
        body: recordStageResultsSchema,
        response: { 200: envelopeSchema(z.object({ saved: z.number().int() })) },
      },
    },
    async (request) => ok(await service.recordResults(request.staff, request.body, request.ip)),
  );
  app.post(
    '/importInterviewScores',
    {
      config: STAFF_ROUTE,
      bodyLimit: SHEET_MAX_BYTES + 64 * 1024,
      schema: {
        summary: '从 Excel 导入面试成绩（multipart：examId、dryRun、file；列：准考证号、面试成绩；重新导入替换原有成绩）',
        tags,
        querystring: q.extend(sheetImportQuery),
        consumes: ['multipart/form-data'],
        response: { 200: envelopeSchema(scoreImportResultSchema) },
      },
    },
    async (request) => {
      const { data, examId, dryRun } = await readSheetUpload(request, '面试成绩表', SHEET_MAX_BYTES);
      return ok(await service.importInterview(request.staff, examId, dryRun, data, request.ip));
    },
  );
  app.get(
    '/getInterviewScoreTemplate',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '下载面试成绩表模板（.xlsx：准考证号、姓名、面试成绩，每位参加面试的考生一行）',
        tags,
        querystring: examIdOnlyQuerySchema.extend(q.shape),
      },
    },
    async (request, reply) => {
      const { rows, file } = await service.interviewTemplate(request.staff, request.query.examId, request.ip);
      return reply
        .header('X-Export-Rows', String(rows))
        .header('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header(
          'Content-Disposition',
          xlsxAttachment(`interview-score-template-${request.query.examId}`, `面试成绩表模板-${request.query.examId}`),
        )
        .send(file);
    },
  );
  app.post(
    '/publishStage',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '公布一个环节的结果与名单（资格复审、综合成绩、体检、拟录用）；再次公布更新时间',
        tags,
        querystring: q,
        body: publishStageSchema,
        response: { 200: envelopeSchema(z.object({ listed: z.number().int() })) },
      },
    },
    async (request) => ok(await service.publish(request.staff, request.body, request.ip)),
  );
};

/** The published lists of the later stages, and the candidate's own results. */
export const stagesRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.stages;
  app.get(
    '/getStageList',
    {
      schema: {
        summary: '后续环节名单（公示，姓名部分隐去；公布后任何人可看）',
        tags: ['scores'],
        querystring: stageListQuerySchema.extend(officeQuerySchema.shape),
        response: { 200: envelopeSchema(stageListSchema) },
      },
    },
    async (request, reply) =>
      app.publicCache.serve(request, reply, cacheKey('getStageList', request.query), () =>
        service.list(request.office.id, request.query.examId, request.query.stage),
      ),
  );
  app.get(
    '/getStageLists',
    {
      schema: {
        summary: '考试已公布的全部后续环节名单（按环节顺序；未公布任何环节时为空）',
        tags: ['scores'],
        querystring: examIdQuerySchema.extend(officeQuerySchema.shape),
        response: { 200: envelopeSchema(z.array(stageListSchema)) },
      },
    },
    async (request, reply) =>
      app.publicCache.serve(request, reply, cacheKey('getStageLists', request.query), () =>
        service.lists(request.office.id, request.query.examId),
      ),
  );
  app.get(
    '/getMyStages',
    {
      config: { auth: 'candidate' as const },
      schema: {
        summary: '本人在已公布的后续环节中的结果（资格复审、面试、体检、拟录用）',
        tags: ['scores'],
        querystring: examIdQuerySchema.extend(officeQuerySchema.shape),
        response: { 200: envelopeSchema(myStagesSchema) },
      },
    },
    async (request, reply) =>
      app.personalCache.serve(request, reply, () => service.mine(request.office.id, request.candidate.subjectId, request.query.examId)),
  );
};
