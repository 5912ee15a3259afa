import type { Captcha, Envelope, StaffAuthResult, StaffLoginInput } from '@zhikaoyun/shared';
import { adminHttp } from '../../lib/staff-session';

export async function staffLogin(input: StaffLoginInput): Promise<StaffAuthResult> {
  return (await adminHttp.post<Envelope<StaffAuthResult>>('/api/admin/login', input)).data.data!;
}

export async function staffLogout(): Promise<void> {
  await adminHttp.post('/api/admin/logout');
}

export async function fetchStaffCaptcha(): Promise<Captcha> {
  return (await adminHttp.get<Envelope<Captcha>>('/api/getCode')).data.data!;
}
