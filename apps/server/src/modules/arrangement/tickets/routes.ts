import {
  admissionTicketSchema,
  doorCheckExamSchema,
  envelopeSchema,
  examIdOnlyQuerySchema,
  examIdQuerySchema,
  moveSeatSchema,
  officeQuerySchema,
  ok,
  publishTicketsSchema,
  roomSheetsQuerySchema,
  verifiedTicketSchema,
  verifyTicketSchema,
} from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STAFF_ROUTE } from '../../access/console-deps';
import { attachment } from '../../../lib/download';

/** Publishing tickets, moving a seat, room sheets and the door check: under /api/admin. */
export const ticketsAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.tickets;
  const tags = ['console'];
  const q = officeQuerySchema;
  app.post(
    '/publishTickets',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '发布准考证：生成准考证号（发布后不再改变）并设定打印时间',
        tags,
        querystring: q,
        body: publishTicketsSchema,
        response: { 200: envelopeSchema(z.object({ issued: z.number().int() })) },
      },
    },
    async (request) => ok(await service.publish(request.staff, request.body, request.ip)),
  );
  app.post(
    '/moveSeat',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '调动单个考生的座位（发布后；准考证号不变）',
        tags,
        querystring: q,
        body: moveSeatSchema,
        response: { 200: envelopeSchema(z.object({ ticketNo: z.string().nullable() })) },
      },
    },
    async (request) => ok(await service.moveSeat(request.staff, request.body, request.ip)),
  );
  app.get(
    '/getRoomSheetsPdf',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '考场签到表和门贴（PDF；不指定考场时为考点全部考场）',
        tags,
        querystring: roomSheetsQuerySchema.extend(q.shape),
      },
    },
    async (request, reply) => {
      const pdf = await service.roomSheets(request.staff, request.office, request.query, request.ip);
      const name = `room-sheets-${request.query.examId}-${request.query.siteId}${request.query.roomId ? `-${request.query.roomId}` : ''}.pdf`;
      return reply
        .header('cache-control', 'private, no-store')
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent('考场签到表')}-${name}`)
        .send(pdf);
    },
  );
  app.get(
    '/exportArrangement',
    {
      config: STAFF_ROUTE,
      schema: { summary: '导出考场编排（.xlsx）', tags, querystring: examIdOnlyQuerySchema.extend(q.shape) },
    },
    async (request, reply) => {
      const file = await service.exportArrangement(request.staff, request.query.examId, request.office.timeZone, request.ip);
      return reply
        .header('cache-control', 'private, no-store')
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', attachment(`arrangement-${request.query.examId}`, `考场编排-${request.query.examId}`, 'xlsx'))
        .send(file);
    },
  );
  app.post(
    '/verifyTicket',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '验证准考证二维码（考场门口；管理员和审核员，审核员限其负责的单位）',
        tags,
        querystring: q,
        body: verifyTicketSchema,
        response: { 200: envelopeSchema(verifiedTicketSchema) },
      },
    },
    async (request) => ok(await service.verify(request.staff, request.body.code, request.body.examId, request.office.timeZone, request.ip)),
  );
  app.get(
    '/getDoorCheckExam',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '验证准考证默认的考试：今天有科目的考试，否则最近将要开考且已发布准考证的考试',
        tags,
        querystring: q,
        response: { 200: envelopeSchema(doorCheckExamSchema) },
      },
    },
    async (request) => ok(await service.doorCheckExam(request.staff, request.office.timeZone)),
  );
};

/** The candidate's own admission ticket. */
export const ticketsRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.tickets;
  app.get(
    '/getAdmissionTicket',
    {
      config: { auth: 'candidate' as const },
      schema: {
        summary: '本人的准考证（打印开始前不可取）',
        tags: ['tickets'],
        querystring: examIdQuerySchema.extend(officeQuerySchema.shape),
        response: { 200: envelopeSchema(admissionTicketSchema) },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'private, no-store');
      return ok(await service.get(request.office.id, request.candidate.subjectId, request.query.examId));
    },
  );
  app.get(
    '/getAdmissionTicketPdf',
    {
      config: { auth: 'candidate' as const },
      schema: {
        summary: '下载本人的准考证（A4 PDF，打印开始前不可取）',
        tags: ['tickets'],
        querystring: examIdQuerySchema.extend(officeQuerySchema.shape),
      },
    },
    async (request, reply) => {
      // Set first, so a refusal is not kept by a shared cache either.
      void reply.header('cache-control', 'private, no-store');
      const pdf = await service.pdf(request.office, request.candidate.subjectId, request.query.examId);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', attachment(`admission-ticket-${request.query.examId}`, `准考证-${request.query.examId}`, 'pdf'))
        .send(pdf);
    },
  );
};
