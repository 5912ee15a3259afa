import { ErrorCode, type ExamDocument } from '@zhikaoyun/shared';
import { AppError } from '../../../lib/app-error';
import { sanitizeRichText } from '../../../lib/rich-text';
import { nowIso } from '../../../lib/clock';
import type { AttachmentsService } from '../attachments/service';
import type { ConsoleDeps } from '../../access/console-deps';
import type { AuditActor, AuditService } from '../../platform/audit/service';
import type { ExamLookup } from '../exams/lookup';
import type { DocumentsRepository } from './repository';
import { toDocument } from './service';

const SORT = { notice: 1, guide: 2, pledge: 3 } as const;

export interface DocumentsAdminDeps {
  repo: DocumentsRepository;
  exams: Pick<ExamLookup, 'require'>;
  attachments: Pick<AttachmentsService, 'link'>;
  audit: AuditService;
  changed: ConsoleDeps['changed'];
}

/**
 * An exam's notice, guide and pledge as the console writes them: one of each type, sanitized,
 * with the attachments their text links to recorded (served to anyone once the exam is published).
 */
export function createDocumentsAdminService({ repo, exams, attachments, audit, changed }: DocumentsAdminDeps) {
  return {
    async list(officeId: number, examId: number): Promise<ExamDocument[]> {
      await exams.require(officeId, examId);
      const rows = await repo.listByExam(officeId, examId, undefined);
      return rows.map(toDocument);
    },

    async save(
      actor: AuditActor,
      input: { examId: number; type: keyof typeof SORT; title: string; content: string },
      ip: string,
    ): Promise<void> {
      await exams.require(actor.officeId, input.examId);
      const content = sanitizeRichText(input.content);
      if (!content.trim()) throw new AppError(ErrorCode.Validation, '正文不能为空');
      const now = nowIso();
      await repo.transaction(async (trx) => {
        const id = await repo.upsert(trx, actor.officeId, { ...input, content, sort: SORT[input.type] }, now);
        await attachments.link(trx, actor.officeId, { type: 'document', id }, [content]);
      });
      await audit.record(actor, '修改考试文件', `exam:${input.examId}`, input.title, ip);
      await changed(actor.officeId);
    },
  };
}
