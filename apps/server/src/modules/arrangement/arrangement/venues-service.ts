import {
  zonedDateTime,
  ErrorCode,
  type ExamSiteInput,
  type ExamSubjectInput,
  type SaveExamRoomInput,
  type SiteImportResult,
} from '@zhikaoyun/shared';
import { AppError, notFound } from '../../../lib/app-error';
import { clock } from '../../../lib/clock';
import type { StaffPrincipal } from '../../../plugins/auth';
import { officeAdminScope } from '../../access/scope';
import { arrangementExams } from './guards';
import { writeSiteTemplate } from './sheet';
import type { ArrangementDeps } from './service';

/** An exam's subjects, and its sites with their rooms: typed in, or imported from a sheet. */
export function createVenuesService(deps: ArrangementDeps) {
  const { repo, audit } = deps;
  const { openExam, unpublished } = arrangementExams(deps.exams);
  return {
    async listSubjects(staff: StaffPrincipal, examId: number) {
      officeAdminScope(staff);
      await openExam(staff.officeId, examId);
      const rows = await repo.subjects(staff.officeId, examId);
      return rows.map((r) => ({ id: r.id, name: r.name, startAt: r.start_at, endAt: r.end_at }));
    },

    async saveSubject(staff: StaffPrincipal, input: ExamSubjectInput, ip: string): Promise<{ id: number }> {
      officeAdminScope(staff);
      await unpublished(staff.officeId, input.examId);
      const at = clock.nowIso();
      let id = input.id;
      if (id === undefined) {
        id = await repo.insertSubject({
          office_id: staff.officeId,
          exam_id: input.examId,
          name: input.name,
          start_at: input.startAt,
          end_at: input.endAt,
          at,
        });
      } else {
        const s = await repo.subject(staff.officeId, id);
        if (!s || s.exam_id !== input.examId) throw notFound('subject');
        await repo.updateSubject(id, { name: input.name, start_at: input.startAt, end_at: input.endAt, at });
      }
      await audit.record(staff, '保存科目', `exam_subject:${id}`, `${input.name} ${zonedDateTime(input.startAt)}`, ip);
      return { id };
    },

    async listSites(staff: StaffPrincipal, examId: number) {
      officeAdminScope(staff);
      await openExam(staff.officeId, examId);
      const [sites, rooms] = await Promise.all([repo.sites(staff.officeId, examId), repo.rooms(staff.officeId, examId)]);
      return sites.map((s) => ({
        id: s.id,
        code: s.code,
        name: s.name,
        address: s.address,
        city: s.city,
        rooms: rooms.filter((r) => r.site_id === s.id).map((r) => ({ id: r.id, code: r.code, seats: r.seats })),
      }));
    },

    async saveSite(staff: StaffPrincipal, input: ExamSiteInput, ip: string): Promise<{ id: number }> {
      officeAdminScope(staff);
      await unpublished(staff.officeId, input.examId);
      if (input.id !== undefined) {
        const s = await repo.site(staff.officeId, input.id);
        if (!s || s.exam_id !== input.examId) throw notFound('site');
        if ((await repo.countSeated(staff.officeId, input.examId)) > 0)
          throw new AppError(ErrorCode.Validation, '考场已编排，请重新编排前先修改考点；已编排的考点不能改考场数');
      }
      const at = clock.nowIso();
      const id = await repo.commit((trx) => repo.saveSite(trx, { ...input, officeId: staff.officeId, city: input.city ?? '', at }));
      await audit.record(staff, '保存考点', `exam_site:${id}`, `${input.name}：${input.rooms} 个考场，每场 ${input.seatsPerRoom} 座`, ip);
      return { id };
    },

    /**
     * One room's seats. Once tickets are published the arrangement is fixed (moves go seat by
     * seat); before, a room never gets fewer seats than the highest one given in it.
     */
    async saveRoom(staff: StaffPrincipal, input: SaveExamRoomInput, ip: string): Promise<{ id: number }> {
      officeAdminScope(staff);
      const room = await repo.room(staff.officeId, input.roomId);
      if (!room) throw notFound('room');
      await unpublished(staff.officeId, room.exam_id);
      const taken = await repo.highestSeat(room.id);
      if (input.seats < taken)
        throw new AppError(
          ErrorCode.Validation,
          `第 ${room.code} 考场已排到第 ${taken} 号座位，座位数不能少于 ${taken}；如需减少请先重新编排`,
        );
      await repo.setRoomSeats(room.id, input.seats);
      await audit.record(staff, '修改考场座位数', `exam_room:${room.id}`, `第 ${room.code} 考场：${room.seats} → ${input.seats} 座`, ip);
      return { id: room.id };
    },

    /** All or nothing: when any row is wrong nothing is written and every wrong row is reported. */
    /** The sheet the import reads, to fill in (the exam is looked up so another office's is refused). */
    async siteTemplate(staff: StaffPrincipal, examId: number): Promise<Buffer> {
      officeAdminScope(staff);
      await openExam(staff.officeId, examId);
      return writeSiteTemplate();
    },

    async importSites(staff: StaffPrincipal, examId: number, file: Buffer, ip: string): Promise<SiteImportResult> {
      officeAdminScope(staff);
      await unpublished(staff.officeId, examId);
      const { rows, errors } = await deps.heavy.readSites(examId, file);
      if (errors.length > 0) return { created: 0, errors };
      const existing = new Set((await repo.sites(staff.officeId, examId)).map((s) => s.name));
      const clashes = rows.flatMap((r, i) => (existing.has(r.name) ? [{ row: i + 2, msg: `考点名称：${r.name} 已存在于本考试` }] : []));
      if (clashes.length > 0) return { created: 0, errors: clashes };
      const at = clock.nowIso();
      await repo.commit(async (trx) => {
        for (const r of rows) await repo.saveSite(trx, { ...r, id: undefined, officeId: staff.officeId, city: r.city ?? '', at });
        await audit.record(staff, '导入考点', `exam:${examId}`, `${rows.length} 个考点`, ip, trx);
      });
      return { created: rows.length, errors: [] };
    },
  };
}
