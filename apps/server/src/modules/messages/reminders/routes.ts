import { examIdQuerySchema, officeQuerySchema } from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { attachment } from '../../../lib/download';

/** 加入日历: the candidate's own deadlines and papers of one exam as an iCalendar file. */
export const calendarRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.calendar;
  app.get(
    '/getExamCalendar',
    {
      config: { auth: 'candidate' as const },
      schema: {
        summary: '本人该考试的日程（iCalendar 文件：截止时间、各科考试时间和考点，均提前一天提醒）',
        tags: ['notifications'],
        querystring: examIdQuerySchema.extend(officeQuerySchema.shape),
      },
    },
    async (request, reply) => {
      // Set first, so a refusal is not kept by a shared cache either.
      void reply.header('cache-control', 'private, no-store');
      const ics = await service.file(request.office, request.candidate.subjectId, request.query.examId);
      return reply
        .header('content-type', 'text/calendar; charset=utf-8')
        .header('content-disposition', attachment(`exam-${request.query.examId}`, `考试日程-${request.query.examId}`, 'ics'))
        .send(ics);
    },
  );
};
