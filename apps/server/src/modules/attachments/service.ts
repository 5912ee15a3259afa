import { ATTACHMENT_EXTENSIONS, ErrorCode } from '@zhikaoyun/shared';
import type { Db } from '../../db/database';
import { AppError } from '../../lib/app-error';
import { nowIso } from '../../lib/time';
import type { AuditActor, AuditService } from '../audit/service';
import { attachmentType } from './file-type';

/** Notice attachments: kept in the database, served only as downloads. */
export function createAttachmentsService({ db, audit }: { db: Db; audit: AuditService }) {
  return {
    async find(officeId: number, id: number) {
      const file = await db.kysely
        .selectFrom('attachment')
        .select(['name', 'mime', 'data'])
        .where('office_id', '=', officeId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (!file) throw new AppError(ErrorCode.NotFound, '该附件不存在或已删除');
      return file;
    },

    async upload(actor: AuditActor & { officeCode: string }, fileName: string, data: Buffer, ip: string) {
      // Path separators and control characters never reach a download's file name.
      const name =
        [...fileName]
          .filter((ch) => ch > '\u001f' && ch !== '/' && ch !== '\\')
          .join('')
          .slice(-120) || 'attachment';
      const mime = attachmentType(name, data);
      if (!mime) throw new AppError(ErrorCode.Validation, `附件格式不支持，请上传 ${ATTACHMENT_EXTENSIONS.join('、')} 文件`);
      const row = await db.kysely
        .insertInto('attachment')
        .values({ office_id: actor.officeId, name, mime, bytes: data.length, data, staff_id: actor.id, created_at: nowIso() })
        .returning('id')
        .executeTakeFirstOrThrow();
      await audit.record(actor, '上传附件', `attachment:${row.id}`, name, ip);
      return { name, url: `/api/getAttachment?id=${row.id}&officeCode=${encodeURIComponent(actor.officeCode)}` };
    },
  };
}
