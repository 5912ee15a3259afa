import { PassThrough } from 'node:stream';
import { auditChainStateSchema, envelopeSchema, officeQuerySchema, ok, zonedDateTimeSeconds } from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { writeSheet, type SheetColumn } from '../../../lib/xlsx-stream';
import { STAFF_ROUTE } from '../../access/console-deps';
import { auditReaderScope } from '../../access/scope';

const COLUMNS: readonly SheetColumn[] = [
  { header: '编号', key: 'id', width: 10 },
  // Its place in the office's audit chain, as verify-audit and the console name a break.
  { header: '序号', key: 'seq', width: 10 },
  { header: '时间', key: 'at', width: 20 },
  { header: '人员', key: 'staffName', width: 16 },
  { header: '操作', key: 'action', width: 18 },
  { header: '对象', key: 'targetLabel', width: 32 },
  { header: '对象编号', key: 'target', width: 20 },
  { header: '说明', key: 'detail', width: 40 },
  { header: '来源地址', key: 'ip', width: 18 },
];

/**
 * The audit log leaves the console as an .xlsx for the auditor (`/api/admin/exportAuditLog`,
 * under /api/admin). Reading it is `getAuditLog` in the review routes. The export is itself
 * recorded, before the file is written, so it lists itself. Beside the log, whether its chain is
 * whole (`getAuditChainState`).
 */
const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  const { audit } = app.services;
  app.get(
    '/exportAuditLog',
    { config: STAFF_ROUTE, schema: { summary: '导出审计日志（.xlsx，审计管理员）', tags: ['console'], querystring: officeQuerySchema } },
    async (request, reply) => {
      const scope = auditReaderScope(request.staff);
      await audit.record(request.staff, '导出审计日志', `office:${scope.officeId}`, '', request.ip);
      const timeZone = request.office.timeZone;
      const out = new PassThrough();
      async function* rows() {
        for await (const batch of audit.all(scope))
          yield batch.map((e) => ({ ...e, seq: e.seq ?? undefined, at: zonedDateTimeSeconds(e.at, timeZone) }));
      }
      writeSheet(out, '审计日志', COLUMNS, rows()).catch((err: unknown) =>
        out.destroy(err instanceof Error ? err : new Error(String(err))),
      );
      return reply
        .header('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('Content-Disposition', `attachment; filename="audit-log.xlsx"; filename*=UTF-8''${encodeURIComponent('审计日志')}.xlsx`)
        .send(out);
    },
  );
  app.get(
    '/getAuditChainState',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '审计链状态（已校验至第几条，或在第几条处断开）',
        tags: ['console'],
        querystring: officeQuerySchema,
        response: { 200: envelopeSchema(auditChainStateSchema) },
      },
    },
    async (request) => ok(await audit.chainState(auditReaderScope(request.staff))),
  );
};

export default auditRoutes;
