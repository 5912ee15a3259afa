import {
  type IdentityStatus,
  APPLICANT_STATUSES,
  APPLICATION_STATES,
  byStatus,
  DEFAULT_REJECTION_REASONS,
  rejectionReasonsSchema,
  type RejectionReasons,
  isValidIdno,
  maskIdno,
  maskMobile,
  type ApplicationStatus,
  type RevealedIdentity,
  type ReviewDetail,
  type ReviewItem,
  type Statistics,
  zonedDays,
  type QueueEdgeInput,
} from '@zhikaoyun/shared';
import type { Readable } from 'node:stream';
import { nowIso } from '../../../lib/clock';
import { parseJsonColumn } from '../../../lib/json';
import type { DataCipher } from '../../../lib/crypto';
import { dataUrl } from '../../../lib/data-url';
import type { StaffPrincipal } from '../../../plugins/auth';
import type { AccountsRepository } from '../../access/accounts/repository';
import type { Actor, Lifecycle } from '../applications/lifecycle';
import type { ApplicationsRepository } from '../applications/repository';
import { parseForm } from '../applications/service';
import type { AuditService } from '../../platform/audit/service';
import type { ApplicationsExportJob } from './export-sheet';
import type { ReviewFilter, ReviewRecord, ReviewRepository } from './repository';
import { applicationScope, type ApplicationScope } from '../../access/scope';
import { requireForStaff } from '../applications/lookup';

export interface ReviewQuery {
  examId: number;
  status?: ApplicationStatus | undefined;
  unit?: string | undefined;
  positionId?: number | undefined;
  keyword?: string | undefined;
  page: number;
  pageSize: number;
  after?: QueueEdgeInput | undefined;
  before?: QueueEdgeInput | undefined;
}

export interface ReviewDeps {
  repo: ReviewRepository;
  findPhoto: AccountsRepository['findPhoto'];
  lifecycle: Lifecycle;
  applicationsRepo: ApplicationsRepository;
  cipher: DataCipher;
  audit: AuditService;
  /** The workbook of an exam's applications, written off the event loop (src/export-worker.ts); `failed`: the office's words if it cannot start. */
  exportFile: (job: Pick<ApplicationsExportJob, 'scope' | 'examId' | 'full' | 'timeZone'>, failed: string) => Promise<Readable>;
  /** Issue 33: the candidates' identity checks, shown beside each application. */
  identityChecks?: (officeId: number, candidateIds: readonly number[]) => Promise<Map<number, IdentityStatus>>;
}

/** The console's side of applications: every read and decision within the staff member's scope. */
export function createReviewService({
  repo,
  findPhoto,
  lifecycle,
  applicationsRepo,
  cipher,
  audit,
  exportFile,
  identityChecks,
}: ReviewDeps) {
  function filter(q: Omit<ReviewQuery, 'page' | 'pageSize' | 'after' | 'before'>): ReviewFilter {
    const keyword = q.keyword?.trim();
    // An ID number is found by its blind index: the database holds no plain ID number to search.
    const idnoIndex = keyword && isValidIdno(keyword) ? cipher.blindIndex('idno', keyword.toUpperCase()) : undefined;
    return { examId: q.examId, status: q.status, unit: q.unit, positionId: q.positionId, keyword, idnoIndex };
  }

  const withIdentity = (i: ReviewItem, identity: IdentityStatus | undefined): ReviewItem => (identity ? { ...i, identity } : i);

  function item(r: ReviewRecord): ReviewItem {
    return {
      id: r.id,
      name: r.name,
      idnoMasked: maskIdno(cipher.decrypt(r.idno_enc)),
      mobileMasked: maskMobile(r.mobile),
      sex: r.sex,
      birthday: r.birthday,
      positionId: r.position_id,
      positionCode: r.position_code ?? '',
      positionName: r.position_name ?? '',
      unit: r.unit ?? '',
      status: r.status,
      reason: r.reason,
      submittedAt: r.submitted_at,
    };
  }

  /** A record staff may read: their office and units, and never a draft the candidate has not submitted. */
  async function readable(scope: ApplicationScope, id: number): Promise<ReviewRecord> {
    return requireForStaff(scope, await repo.record(scope.officeId, id), { hideDrafts: true });
  }

  const actorOf = (staff: StaffPrincipal, ip: string): Extract<Actor, { kind: 'staff' }> => ({
    kind: 'staff',
    id: staff.id,
    officeId: staff.officeId,
    name: staff.name,
    role: staff.role,
    ip,
  });

  return {
    async list(staff: StaffPrincipal, q: ReviewQuery): Promise<{ list: ReviewItem[]; total: number }> {
      const at = q.after
        ? { edge: { side: 'after' as const, ...q.after } }
        : q.before
          ? { edge: { side: 'before' as const, ...q.before } }
          : { offset: (q.page - 1) * q.pageSize };
      const { rows, total } = await repo.page(applicationScope(staff), filter(q), at, q.pageSize);
      const checks = identityChecks
        ? await identityChecks(
            staff.officeId,
            rows.map((r) => r.candidate_id),
          )
        : null;
      return { list: rows.map((r) => withIdentity(item(r), checks?.get(r.candidate_id))), total };
    },

    /** The full record with photo and history; the ID number and phone stay masked (see reveal). */
    async detail(staff: StaffPrincipal, id: number, ip: string): Promise<ReviewDetail> {
      const row = await readable(applicationScope(staff), id);
      let photo = '';
      if (row.photo_id !== null) {
        const p = await findPhoto(staff.officeId, row.photo_id);
        if (p) photo = dataUrl(p.mime, p.data);
      }
      const history = await applicationsRepo.history(row.id);
      // Opening a record (photo, form) is itself an action worth recording.
      await audit.record(staff, '查看报名', `application:${row.id}`, '', ip);
      const checks = identityChecks ? await identityChecks(staff.officeId, [row.candidate_id]) : null;
      return { ...withIdentity(item(row), checks?.get(row.candidate_id)), email: row.email, photo, form: parseForm(row.form), history };
    },

    /** The whole ID number and phone of one record: asked for one at a time, each time audited. */
    async reveal(staff: StaffPrincipal, id: number, ip: string): Promise<RevealedIdentity> {
      const scope = applicationScope(staff);
      const row = requireForStaff(scope, await repo.record(scope.officeId, id), { hideDrafts: true });
      await audit.record(staff, '查看完整身份信息', `application:${row.id}`, '', ip);
      return { idno: cipher.decrypt(row.idno_enc), mobile: row.mobile };
    },

    /** `final`: a rejection the candidate may not resubmit (the lifecycle's rejectFinal). */
    async decide(
      staff: StaffPrincipal,
      id: number,
      decision: 'approve' | 'reject',
      reason: string,
      ip: string,
      final = false,
    ): Promise<void> {
      const scope = applicationScope(staff);
      const row = requireForStaff(scope, await repo.decisionRow(scope.officeId, id), { hideDrafts: false });
      // A draft is refused by the lifecycle like any status that is not under review: the
      // reviewer hears that it was withdrawn, not that it vanished.
      const event = decision === 'reject' && final ? 'rejectFinal' : decision;
      await lifecycle.fire({ officeId: scope.officeId, application: row, event, actor: actorOf(staff, ip), reason });
    },

    /** The office's preset rejection reasons (the defaults until it saves its own). */
    async rejectionReasons(officeId: number): Promise<RejectionReasons> {
      return parseJsonColumn(rejectionReasonsSchema, (await repo.rejectionReasons(officeId)) ?? '', {
        reasons: [...DEFAULT_REJECTION_REASONS],
      });
    },

    async saveRejectionReasons(staff: StaffPrincipal, input: RejectionReasons, ip: string): Promise<RejectionReasons> {
      const value = rejectionReasonsSchema.parse(input);
      await repo.saveRejectionReasons(staff.officeId, JSON.stringify(value), nowIso(), (trx) =>
        audit.record(staff, '修改常用不通过原因', `office:${staff.officeId}`, value.reasons.join('；') || '（无）', ip, trx),
      );
      return value;
    },

    /**
     * Approves the ones in scope still under review, set-based in one transaction through the
     * lifecycle (which decides which statuses may be approved); the rest are skipped.
     */
    async bulkApprove(staff: StaffPrincipal, ids: number[], ip: string): Promise<{ approved: number; skipped: number }> {
      const scope = applicationScope(staff);
      const unique = [...new Set(ids)];
      const rows = await repo.decisionRows(scope, unique);
      const actor = actorOf(staff, ip);
      const moved = await lifecycle.fireMany({
        officeId: scope.officeId,
        applications: rows,
        event: 'approve',
        actor,
        auditNote: '批量审核',
      });
      const approved = moved.length;
      await audit.record(staff, '批量审核通过', `applications:${unique.length}`, `通过 ${approved} 条`, ip);
      return { approved, skipped: unique.length - approved };
    },

    /** Counts per position, status and day (the office's days), within the staff member's units. */
    async statistics(staff: StaffPrincipal, examId: number, timeZone: string): Promise<Statistics> {
      const scope = applicationScope(staff);
      const [counts, statuses, quarters] = await Promise.all([
        repo.positionCounts(scope, examId),
        repo.statusCounts(scope, examId),
        repo.submittedPerQuarter(scope, examId),
      ]);
      const byPosition = new Map<number, Statistics['positions'][number]>();
      for (const c of counts) {
        const p = byPosition.get(c.id) ?? {
          id: c.id,
          code: c.code,
          name: c.name,
          unit: c.unit,
          headcount: c.headcount,
          applied: 0,
          submitted: 0,
          approved: 0,
          rejected: 0,
          confirmed: 0,
          ratio: 0,
        };
        const n = Number(c.n ?? 0);
        const tally = c.status === null ? undefined : APPLICATION_STATES[c.status].tally;
        if (tally) p[tally] += n;
        if (c.status !== null && APPLICANT_STATUSES.includes(c.status)) p.applied += n;
        byPosition.set(c.id, p);
      }
      const positions = [...byPosition.values()].map((p) => ({
        ...p,
        ratio: p.headcount > 0 ? Math.round((p.applied / p.headcount) * 100) / 100 : 0,
      }));
      const totals = byStatus(() => 0);
      for (const s of statuses) totals[s.status] = Number(s.n);
      const perDay = new Map<string, number>();
      const dayOf = zonedDays(timeZone);
      // Every time zone is a whole number of quarter hours from UTC, so a quarter hour lies in one day.
      for (const q of quarters) {
        if (q.n === 0) continue;
        const [hour, minute = '0'] = q.bucket.split(/:(?=\d+$)/);
        const day = dayOf(`${hour}:${minute.padStart(2, '0')}:00.000Z`);
        perDay.set(day, (perDay.get(day) ?? 0) + q.n);
      }
      return {
        totals,
        positions,
        emptyPositions: positions.filter((p) => p.submitted + p.approved + p.rejected + p.confirmed === 0).length,
        perDay: [...perDay.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([date, count]) => ({ date, count })),
      };
    },

    /**
     * The exam's applications in scope as .xlsx, streamed as it is written by a worker thread
     * (src/export-worker.ts), so a million rows never hold up a candidate's request.
     * The full ID number only for admins, who need it for tickets. Answers the number of rows it
     * will hold (for progress) and the stream.
     */
    async export(staff: StaffPrincipal, examId: number, ip: string, timeZone: string): Promise<{ rows: number; file: Readable }> {
      const scope = applicationScope(staff);
      const { total } = await repo.page(scope, filter({ examId }), { offset: 0 }, 0);
      await audit.record(staff, '导出报名', `exam:${examId}`, `${total} 条`, ip);
      const file = await exportFile({ scope, examId, full: staff.role === 'admin', timeZone }, '报名信息导出失败，请稍后再试');
      return { rows: total, file };
    },
  };
}
