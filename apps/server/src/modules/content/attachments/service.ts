import { randomBytes } from 'node:crypto';
import {
  ATTACHMENT_EXTENSIONS,
  ATTACHMENT_ID_PATTERN,
  attachmentIdsIn,
  attachmentUrl,
  ErrorCode,
  type AttachmentUpload,
} from '@zhikaoyun/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema';
import { AppError, notFound } from '../../../lib/app-error';
import { clock, nowIso } from '../../../lib/clock';
import type { AuditActor, AuditService } from '../../platform/audit/service';
import { attachmentType } from './file-type';
import type { AttachmentKey, AttachmentOwner, AttachmentsRepository } from './repository';

export type { AttachmentOwner } from './repository';

/** An upload nothing has linked to for this long is deleted (the editor links it when the notice is saved). */
export const UNLINKED_TTL_MS = 24 * 60 * 60 * 1000;

const keyOf = (id: string): AttachmentKey => (ATTACHMENT_ID_PATTERN.test(id) ? { publicId: id } : { id: Number(id) });

/**
 * Notice attachments, kept in the database and served only as downloads. Anyone may download a
 * file that something published links to; staff may download any file of their office. Links
 * are recorded when their text is saved (`link`), and a file nothing links to any more is
 * deleted then, or by `sweep` a day after its upload when it was never linked at all.
 */
export function createAttachmentsService({ repo, audit }: { repo: AttachmentsRepository; audit: AuditService }) {
  async function withData<T extends { id: number }>(row: T | undefined) {
    if (!row) throw notFound('attachment');
    const data = await repo.data(row.id);
    if (!data) throw notFound('attachment');
    return { ...row, data };
  }

  return {
    /** For anyone: only a file something published links to (without its bytes: a revalidation needs none). */
    async findPublished(officeId: number, id: string) {
      const row = await repo.findPublished(officeId, keyOf(id));
      if (!row) throw notFound('attachment');
      return row;
    },
    async findForStaff(officeId: number, id: string) {
      const row = await repo.find(officeId, keyOf(id));
      if (!row) throw notFound('attachment');
      return row;
    },
    withData,

    async upload(actor: AuditActor & { officeCode: string }, fileName: string, data: Buffer, ip: string): Promise<AttachmentUpload> {
      // Path separators and control characters never reach a download's file name.
      const name =
        [...fileName]
          .filter((ch) => ch > '\u001f' && ch !== '/' && ch !== '\\')
          .join('')
          .slice(-120) || 'attachment';
      const mime = attachmentType(name, data);
      if (!mime) throw new AppError(ErrorCode.Validation, `附件格式不支持，请上传 ${ATTACHMENT_EXTENSIONS.join('、')} 文件`);
      const publicId = randomBytes(16).toString('base64url');
      const id = await repo.insert({ officeId: actor.officeId, publicId, name, mime, data, staffId: actor.id, now: nowIso() });
      await audit.record(actor, '上传附件', `attachment:${id}`, name, ip);
      return { id: publicId, name, url: attachmentUrl(publicId, actor.officeCode) };
    },

    /**
     * Records which of the office's attachments `texts` (rich text, URLs) link to as the owner's
     * links, inside the owner's own transaction, and deletes the files the owner linked to before
     * that nothing links to any more.
     */
    async link(trx: Kysely<DB>, officeId: number, owner: AttachmentOwner, texts: string[]): Promise<void> {
      const keys = texts.flatMap(attachmentIdsIn).map(keyOf);
      const publicIds = keys.flatMap((k) => ('publicId' in k ? [k.publicId] : []));
      const ids = keys.flatMap((k) => ('id' in k ? [k.id] : []));
      const before = await repo.linkedFrom(trx, officeId, owner);
      const now = await repo.resolve(trx, officeId, publicIds, ids);
      await repo.setLinks(trx, officeId, owner, now);
      await repo.deleteUnlinked(
        trx,
        officeId,
        before.filter((id) => !now.includes(id)),
      );
    },

    /** The owner is gone: its links go, and the files only it linked to. */
    async unlink(trx: Kysely<DB>, officeId: number, owner: AttachmentOwner): Promise<void> {
      const before = await repo.linkedFrom(trx, officeId, owner);
      await repo.setLinks(trx, officeId, owner, []);
      await repo.deleteUnlinked(trx, officeId, before);
    },

    /** Deletes uploads nothing has linked to for a day; answers how many went. */
    sweep(): Promise<number> {
      return repo.deleteUnlinkedBefore(clock.isoIn(-UNLINKED_TTL_MS));
    },
  };
}
export type AttachmentsService = ReturnType<typeof createAttachmentsService>;
