import multipart from '@fastify/multipart';
import {
  envelopeSchema,
  examIdOnlyQuerySchema,
  examIdQuerySchema,
  fillVacancySchema,
  interviewListSchema,
  myScoreSchema,
  officeQuerySchema,
  ok,
  publishScoresSchema,
  requestScoreReviewSchema,
  answerScoreReviewSchema,
  scoreReviewListQuerySchema,
  scoreReviewSchema,
  recordGiveUpSchema,
  saveScoreRulesSchema,
  scoreImportResultSchema,
  scoreRankingQuerySchema,
  scoreRankingSchema,
  scoreRulesSchema,
} from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readSheetUpload, sheetImportQuery } from '../../../lib/upload';
import { attachment, xlsxAttachment } from '../../../lib/download';
import { cacheKey } from '../../../plugins/public-cache';
import { STAFF_ROUTE } from '../../access/console-deps';

/** A hundred thousand rows of scores are a few MB packed. */
const SHEET_MAX_BYTES = 20 * 1024 * 1024;

/** Score rules, import, ranking, publishing and export: under /api/admin, for the office's admins. */
export const scoresAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.scores;
  const tags = ['console'];
  const q = officeQuerySchema;
  await app.register(multipart, { limits: { fileSize: SHEET_MAX_BYTES, files: 1, fields: 5, parts: 6 } });

  app.get(
    '/getScoreRules',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '成绩规则与发布状态（满分、权重、合格线、面试比例、加分）',
        tags,
        querystring: examIdOnlyQuerySchema.extend(q.shape),
        response: { 200: envelopeSchema(scoreRulesSchema) },
      },
    },
    async (request) => ok(await service.rules(request.staff, request.query.examId)),
  );
  app.post(
    '/saveScoreRules',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '设置成绩规则（重新计算总成绩与是否合格）',
        tags,
        querystring: q,
        body: saveScoreRulesSchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await service.saveRules(request.staff, request.body, request.ip);
      return ok(null);
    },
  );
  app.post(
    '/importScores',
    {
      config: STAFF_ROUTE,
      bodyLimit: SHEET_MAX_BYTES + 64 * 1024,
      schema: {
        summary: '从 Excel 导入成绩（multipart：examId、dryRun、file；dryRun 只检查；有错误时不导入并逐行说明；重新导入替换原有成绩）',
        tags,
        querystring: q.extend(sheetImportQuery),
        consumes: ['multipart/form-data'],
        response: { 200: envelopeSchema(scoreImportResultSchema) },
      },
    },
    async (request) => {
      const { data, examId, dryRun } = await readSheetUpload(request, '成绩表', SHEET_MAX_BYTES);
      return ok(await service.importSheet(request.staff, examId, dryRun, data, request.ip));
    },
  );
  app.get(
    '/getScoreRanking',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '成绩排名：各岗位概况（不足比例的岗位标出），及所选岗位的排名',
        tags,
        querystring: scoreRankingQuerySchema.extend(q.shape),
        response: { 200: envelopeSchema(scoreRankingSchema) },
      },
    },
    async (request) => ok(await service.ranking(request.staff, request.query.examId, request.query.positionId)),
  );
  app.post(
    '/publishScores',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '发布成绩：设定查询开始时间，首次发布时通知每位持准考证的考生',
        tags,
        querystring: q,
        body: publishScoresSchema,
        response: { 200: envelopeSchema(z.object({ notified: z.number().int() })) },
      },
    },
    async (request) => ok(await service.publish(request.staff, request.body, request.ip, request.office.timeZone)),
  );
  app.post(
    '/recordGiveUp',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '记录面试名单中的考生放弃（其名额可递补）',
        tags,
        querystring: q,
        body: recordGiveUpSchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await service.recordGiveUp(request.staff, request.body, request.ip);
      return ok(null);
    },
  );
  app.post(
    '/fillVacancy',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '递补：按排名由合格考生补足放弃的名额（成绩相同者一并递补），并通知递补考生',
        tags,
        querystring: q,
        body: fillVacancySchema,
        response: { 200: envelopeSchema(z.object({ added: z.array(z.string()) })) },
      },
    },
    async (request) => ok(await service.fillVacancy(request.staff, request.body, request.ip)),
  );
  app.get(
    '/getScoreReviewList',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '成绩复核申请（可按待答复/已答复筛选），新的在前',
        tags,
        querystring: scoreReviewListQuerySchema.extend(q.shape),
        response: { 200: envelopeSchema(z.array(scoreReviewSchema)) },
      },
    },
    async (request) => ok(await service.reviewList(request.staff, request.query.examId, request.query.status)),
  );
  app.post(
    '/answerScoreReview',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '答复成绩复核：复核无误，或更正分数（同时重算总成绩与排名），并通知考生',
        tags,
        querystring: q,
        body: answerScoreReviewSchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await service.answerReview(request.staff, request.body, request.ip);
      return ok(null);
    },
  );
  app.get(
    '/exportInterviewListPdf',
    {
      config: STAFF_ROUTE,
      schema: { summary: '导出面试人员名单公示（PDF，姓名部分隐去）', tags, querystring: examIdOnlyQuerySchema.extend(q.shape) },
    },
    async (request, reply) => {
      const pdf = await service.exportInterviewListPdf(request.staff, request.office, request.query.examId, request.ip);
      return reply
        .header('Content-Type', 'application/pdf')
        .header('Content-Disposition', attachment(`interview-list-${request.query.examId}`, `面试名单-${request.query.examId}`, 'pdf'))
        .send(Buffer.from(pdf));
    },
  );
  app.get(
    '/getScoreTemplate',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '下载成绩表模板（.xlsx：准考证号、姓名、各科目、加分（计入时），每位持准考证的考生一行）',
        tags,
        querystring: examIdOnlyQuerySchema.extend(q.shape),
      },
    },
    async (request, reply) => {
      const { rows, file } = await service.scoreTemplate(request.staff, request.query.examId, request.ip);
      return reply
        .header('X-Export-Rows', String(rows))
        .header('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('Content-Disposition', xlsxAttachment(`score-template-${request.query.examId}`, `成绩表模板-${request.query.examId}`))
        .send(file);
    },
  );
  app.get(
    '/exportScores',
    { config: STAFF_ROUTE, schema: { summary: '导出成绩排名（.xlsx）', tags, querystring: examIdOnlyQuerySchema.extend(q.shape) } },
    async (request, reply) => {
      const { rows, file } = await service.exportRanking(request.staff, request.query.examId, request.ip);
      return reply
        .header('X-Export-Rows', String(rows))
        .header('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('Content-Disposition', attachment(`scores-${request.query.examId}`, `成绩排名-${request.query.examId}`, 'xlsx'))
        .send(file);
    },
  );
};

/** The candidate's own score, and the public interview list. */
export const scoresRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.scores;
  app.get(
    '/getMyScore',
    {
      config: { auth: 'candidate' as const },
      schema: {
        summary: '本人的笔试成绩与岗位排名（查询开始前不可取）',
        tags: ['scores'],
        querystring: examIdQuerySchema.extend(officeQuerySchema.shape),
        response: { 200: envelopeSchema(myScoreSchema) },
      },
    },
    async (request, reply) =>
      app.personalCache.serve(request, reply, () =>
        service.mine(request.office.id, request.candidate.subjectId, request.query.examId, request.office.timeZone),
      ),
  );
  app.post(
    '/requestScoreReview',
    {
      config: { auth: 'candidate' as const },
      schema: {
        summary: '申请成绩复核（发布时设定的时间内，每科一次）',
        tags: ['scores'],
        querystring: officeQuerySchema,
        body: requestScoreReviewSchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await service.requestReview(request.office.id, request.candidate.subjectId, request.body, request.office.timeZone);
      return ok(null);
    },
  );
  app.get(
    '/getInterviewList',
    {
      schema: {
        summary: '面试名单（公示，姓名部分隐去；发布后任何人可看）',
        tags: ['scores'],
        querystring: examIdQuerySchema.extend(officeQuerySchema.shape),
        response: { 200: envelopeSchema(interviewListSchema) },
      },
    },
    async (request, reply) =>
      app.publicCache.serve(request, reply, cacheKey('getInterviewList', request.query), () =>
        service.interviewList(request.office.id, request.query.examId),
      ),
  );
};
