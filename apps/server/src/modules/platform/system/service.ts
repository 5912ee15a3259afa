import {
  DEFAULT_MENU,
  DEFAULT_RETENTION_YEARS,
  DEFAULT_TIME_ZONE,
  DEFAULT_SITE_NAME,
  ErrorCode,
  menuSchema,
  officeSettingsSchema,
  type MenuItem,
  type OfficeSettings,
  type SystemSetting,
  type TreatyDesc,
} from '@zhikaoyun/shared';
import { AppError } from '../../../lib/app-error';
import { parseJsonColumn } from '../../../lib/json';
import type { SystemRepository } from './repository';

export const EMPTY_SETTINGS: OfficeSettings = {
  webname: DEFAULT_SITE_NAME,
  contactPhone: '',
  contactEmail: '',
  address: '',
  workHours: '',
  icp: '',
  announcement: '',
  timeZone: DEFAULT_TIME_ZONE,
  staffTotpRequired: false,
  retentionYears: DEFAULT_RETENTION_YEARS,
};

export function createSystemService(repo: SystemRepository) {
  async function office(officeId: number) {
    const row = await repo.findOffice(officeId);
    if (!row) throw new AppError(ErrorCode.UnknownOffice);
    return row;
  }

  return {
    async getSystemSetting(officeId: number): Promise<SystemSetting> {
      const row = await office(officeId);
      // The staff's sign-in rule is no business of the public site.
      const {
        staffTotpRequired: _staffRule,
        retentionYears: _retention,
        ...settings
      } = parseJsonColumn(officeSettingsSchema, row.settings, EMPTY_SETTINGS);
      return {
        ...settings,
        webname: settings.webname || DEFAULT_SITE_NAME,
        officeId: row.id,
        officeCode: row.code,
        officeName: row.name,
      };
    },

    async getMenu(officeId: number): Promise<MenuItem[]> {
      const row = await office(officeId);
      return parseJsonColumn(menuSchema, row.menu, DEFAULT_MENU);
    },

    async getTreatyDesc(officeId: number): Promise<TreatyDesc> {
      const row = await office(officeId);
      return { title: row.agreement_title, content: row.agreement_content, updatedAt: row.agreement_updated_at };
    },
  };
}
