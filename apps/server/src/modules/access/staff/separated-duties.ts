import { ErrorCode, type StaffRole } from '@zhikaoyun/shared';
import { AppError } from '../../../lib/app-error';

/**
 * Nobody grants a role to themselves (三权分立, decision 031): an admin may rename themselves or
 * set their own password here, never change their own role — another admin does, and the
 * auditor reads it in the log.
 */
export function refuseOwnRole(actor: { id: number }, before: { id: number; role: string } | undefined, role: StaffRole): void {
  if (before && before.id === actor.id && before.role !== role) throw new AppError(ErrorCode.Forbidden, '不能修改自己的角色');
}
