import { ErrorCode, mayCall, staffUnitScope, unitInScope, type UnitScope } from '@zhikaoyun/shared';
import { AppError } from '../../lib/app-error';
import type { StaffPrincipal } from '../../plugins/auth';

/**
 * The one rule of what a staff member may reach. Every staff read and write of applications (the
 * queue, a record, the identity reveal, statistics, the export, decisions one by one or in bulk)
 * takes an ApplicationScope made here, and the review repository turns it into SQL; office-wide
 * records (appeals) take an OfficeAdminScope, the audit log an AuditReaderScope.
 */
export interface ApplicationScope {
  readonly officeId: number;
  readonly units: UnitScope;
}

type Staff = Pick<StaffPrincipal, 'officeId' | 'role' | 'units'>;

/** The staff member's own office; an admin every unit of it, a reviewer the units listed (none if none). */
export function applicationScope(staff: Staff): ApplicationScope {
  return { officeId: staff.officeId, units: staffUnitScope(staff.role, staff.units) };
}

/** The same rule for one row already read (the SQL side is `unitCondition` in the repository). */
export function inScope(scope: ApplicationScope, unit: string | null | undefined): boolean {
  return unitInScope(scope.units, unit);
}

/** Office-wide records: the caller's own office, and only for its admins. */
export interface OfficeAdminScope {
  readonly officeId: number;
  readonly admin: true;
}

export function officeAdminScope(staff: Pick<StaffPrincipal, 'officeId' | 'role'>): OfficeAdminScope {
  if (staff.role !== 'admin') throw new AppError(ErrorCode.Forbidden);
  return { officeId: staff.officeId, admin: true };
}

/** The office's audit log: the caller's own office, for the roles the permission table lets read it (the auditor). */
export interface AuditReaderScope {
  readonly officeId: number;
  readonly auditReader: true;
}

export function auditReaderScope(staff: Pick<StaffPrincipal, 'officeId' | 'role'>): AuditReaderScope {
  if (!mayCall(staff.role, '/api/admin/getAuditLog')) throw new AppError(ErrorCode.Forbidden);
  return { officeId: staff.officeId, auditReader: true };
}
