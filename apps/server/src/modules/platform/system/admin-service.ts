import {
  DEFAULT_MENU,
  ErrorCode,
  menuSchema,
  officeSettingsSchema,
  type MenuItem,
  type OfficeAdmin,
  type OfficeSettings,
} from '@zhikaoyun/shared';
import { AppError } from '../../../lib/app-error';
import { parseJsonColumn } from '../../../lib/json';
import { sanitizeRichText } from '../../../lib/rich-text';
import { nowIso } from '../../../lib/clock';
import type { AttachmentsService } from '../../content/attachments/service';
import type { ConsoleDeps } from '../../access/console-deps';
import type { AuditActor, AuditService } from '../audit/service';
import type { OfficeColumns, SystemRepository } from './repository';
import { EMPTY_SETTINGS } from './service';

export interface SystemAdminDeps {
  repo: SystemRepository;
  attachments: Pick<AttachmentsService, 'link'>;
  audit: AuditService;
  changed: ConsoleDeps['changed'];
}

/** The office's settings, menu and registration agreement, as admins edit them. */
export function createSystemAdminService({ repo, attachments, audit, changed }: SystemAdminDeps) {
  async function update(actor: AuditActor, values: OfficeColumns, action: string, ip: string) {
    const found = await repo.transaction(async (trx) => {
      if (!(await repo.updateOffice(trx, actor.officeId, values, nowIso()))) return false;
      // The agreement is always shown, so what it links to is public while it does.
      if (values.agreement_content !== undefined) {
        await attachments.link(trx, actor.officeId, { type: 'agreement', id: actor.officeId }, [values.agreement_content]);
      }
      return true;
    });
    if (!found) throw new AppError(ErrorCode.UnknownOffice);
    await audit.record(actor, action, `office:${actor.officeId}`, '', ip);
    await changed(actor.officeId);
  }

  return {
    async get(officeId: number): Promise<OfficeAdmin> {
      const row = await repo.findOffice(officeId);
      if (!row) throw new AppError(ErrorCode.UnknownOffice);
      return {
        settings: parseJsonColumn(officeSettingsSchema, row.settings, EMPTY_SETTINGS),
        menu: parseJsonColumn(menuSchema, row.menu, DEFAULT_MENU),
        agreement: { title: row.agreement_title, content: row.agreement_content, updatedAt: row.agreement_updated_at },
      };
    },
    updateSettings(actor: AuditActor, settings: OfficeSettings, ip: string) {
      return update(actor, { settings: JSON.stringify(settings) }, '修改系统设置', ip);
    },
    updateMenu(actor: AuditActor, menu: MenuItem[], ip: string) {
      return update(actor, { menu: JSON.stringify(menu) }, '修改菜单', ip);
    },
    updateAgreement(actor: AuditActor, input: { title: string; content: string }, ip: string) {
      const content = sanitizeRichText(input.content);
      if (!content.trim()) throw new AppError(ErrorCode.Validation, '协议内容不能为空');
      return update(
        actor,
        { agreement_title: input.title, agreement_content: content, agreement_updated_at: nowIso() },
        '修改注册协议',
        ip,
      );
    },
  };
}
