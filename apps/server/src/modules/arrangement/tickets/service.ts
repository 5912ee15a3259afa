import {
  AUDIENCE_RULES,
  DEFAULT_TIME_ZONE,
  ErrorCode,
  zonedDateTime,
  zonedDay,
  type DoorCheckExam,
  type MoveSeatInput,
  APPLICATION_STATES,
  doorCheckLine,
  examConfigSchema,
  ticketIdentityText,
  type TicketIdentity,
} from '@zhikaoyun/shared';
import ExcelJS from 'exceljs';
import { isUniqueViolation } from '../../../db/errors';
import { timingSafeEqual } from 'node:crypto';
import { AppError, notFound } from '../../../lib/app-error';
import { clock } from '../../../lib/clock';
import type { DataCipher } from '../../../lib/crypto';
import type { StaffPrincipal } from '../../../plugins/auth';
import type { AuditService } from '../../platform/audit/service';
import type { ExamLookup } from '../../content/exams/lookup';
import type { ArrangementRepository } from '../arrangement/repository';
import type { NotificationsService } from '../../messages/notifications/service';
import type { IdentityChecks } from '../../access/identity/service';
import { parseJsonColumn } from '../../../lib/json';
import { applicationScope, inScope, officeAdminScope } from '../../access/scope';
import { issueTickets } from './issue';
import { createPdfCache } from './pdf-cache';
import { renderTicketPdf, type TicketPdfInput } from './pdf';
import type { TicketsRepository } from './repository';
import { renderRoomSheets, type RoomSheetSitting } from './room-sheet';

export interface TicketsDeps {
  repo: TicketsRepository;
  cipher: DataCipher;
  audit: AuditService;
  exams: ExamLookup;
  /** Tickets open: every ticketed candidate's message, written with the publishing. */
  notifications: Pick<NotificationsService, 'stepToAudience'>;
  findPhoto(officeId: number, photoId: number): Promise<{ mime: string; data: Buffer } | undefined>;
  /** A room of the office (the arrangement's): where a moved candidate goes. */
  findRoom: ArrangementRepository['room'];
  /** The candidates' identity checks (the identity service's `checksOf`), for the ticket, the door and the room lists. */
  identityChecks(officeId: number, candidateIds: readonly number[]): Promise<Map<number, IdentityChecks>>;
}

const CODE_VERSION = 'ZK1';
const MAC_PURPOSE = 'admission ticket v1';
const MAC_LENGTH = 32;
/** About a thousand rendered tickets per process. */
const PDF_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Admission tickets: numbers from the exam's template, fixed at publishing; the candidate's ticket
 * inside the print window; the door check of the QR code. The code holds the exam and ticket
 * number (never the ID number) with an HMAC under the data key, so a forged or altered code, or
 * one of another exam, is refused.
 */
export function createTicketsService(deps: TicketsDeps) {
  const { repo, cipher, audit, exams } = deps;
  const pdfCache = createPdfCache(PDF_CACHE_BYTES);

  function mac(
    officeId: number,
    examId: number,
    ticketNo: string,
    index: string = cipher.blindIndex(MAC_PURPOSE, `${officeId}.${examId}.${ticketNo}`),
  ) {
    return index.slice(0, MAC_LENGTH);
  }
  function sign(officeId: number, examId: number, ticketNo: string): string {
    return `${CODE_VERSION}.${examId}.${ticketNo}.${mac(officeId, examId, ticketNo)}`;
  }
  function check(officeId: number, code: string): { examId: number; ticketNo: string } | null {
    const m = /^ZK1\.(\d{1,9})\.(\d{1,30})\.([0-9a-f]{32})$/.exec(code.trim());
    if (!m) return null;
    const examId = Number(m[1]);
    const ticketNo = m[2]!;
    const given = Buffer.from(m[3]!);
    const fits = cipher
      .blindIndexes(MAC_PURPOSE, `${officeId}.${examId}.${ticketNo}`)
      .some((i) => timingSafeEqual(Buffer.from(mac(officeId, examId, ticketNo, i)), given));
    return fits ? { examId, ticketNo } : null;
  }

  /**
   * Each candidate's checks as the door needs them: the face check only for an exam that asks for
   * one (issue 33). A candidate without a check row reads pending (the identity service's rule).
   */
  async function identityOf(
    officeId: number,
    exam: { config: string },
    candidateIds: readonly number[],
  ): Promise<(candidateId: number) => TicketIdentity> {
    const face = parseJsonColumn(examConfigSchema, exam.config, { fields: [], required: [] }).faceVerify === true;
    const checks = await deps.identityChecks(officeId, [...new Set(candidateIds)]);
    return (id) => {
      const c = checks.get(id);
      return { realName: c?.realName ?? 'pending', face: face ? (c?.face ?? 'none') : null };
    };
  }

  async function publishedTicket(officeId: number, candidateId: number, examId: number) {
    const exam = await exams.require(officeId, examId);
    if (exam.tickets_published_at === null || exam.print_start === null)
      throw new AppError(ErrorCode.Validation, '准考证尚未发布，请留意考试公告');
    if (clock.nowIso() < exam.print_start)
      throw new AppError(ErrorCode.Validation, `准考证打印将于 ${zonedDateTime(exam.print_start, DEFAULT_TIME_ZONE)} 开始，请届时再来`);
    if (exam.print_end !== null && clock.nowIso() > exam.print_end)
      throw new AppError(
        ErrorCode.Validation,
        `准考证打印已于 ${zonedDateTime(exam.print_end, DEFAULT_TIME_ZONE)} 结束，如需补打请联系考试机构`,
      );
    const t = await repo.ticketByApplication(officeId, examId, candidateId);
    if (!t || !APPLICATION_STATES[t.status].sits) throw notFound('ownTicket');
    return { exam, t };
  }

  return {
    sign,

    async publish(staff: StaffPrincipal, input: { examId: number; printStart: string; printEnd: string }, ip: string) {
      officeAdminScope(staff);
      const at = clock.nowIso();
      return repo.commit(async (trx) => {
        const exam = await exams.require(staff.officeId, input.examId, trx);
        let issued = 0;
        if (exam.tickets_published_at === null) {
          issued = await issueTickets(repo, trx, staff.officeId, input.examId, exam, at);
        }
        await repo.publish(trx, input.examId, input.printStart, input.printEnd, at);
        // Told once, when the tickets are issued; re-publishing only moves the print window.
        if (issued > 0)
          await deps.notifications.stepToAudience(trx, {
            officeId: staff.officeId,
            examId: input.examId,
            audience: AUDIENCE_RULES.ticketed,
            kind: 'tickets_open',
            until: { from: input.printStart, to: input.printEnd },
            at,
          });
        await audit.record(
          staff,
          '发布准考证',
          `exam:${input.examId}`,
          `${issued > 0 ? `生成 ${issued} 张；` : ''}打印时间 ${zonedDateTime(input.printStart)} 至 ${zonedDateTime(input.printEnd)}`,
          ip,
          trx,
        );
        return { issued };
      });
    },

    async get(officeId: number, candidateId: number, examId: number) {
      const { exam, t } = await publishedTicket(officeId, candidateId, examId);
      const subjects = await repo.subjectsOf(t.application_id);
      const identity = (await identityOf(officeId, exam, [candidateId]))(candidateId);
      return {
        ticketNo: t.ticket_no,
        name: t.name,
        site: t.site,
        address: t.address,
        room: t.room,
        seat: t.seat,
        subjects: subjects.map((s) => ({ name: s.name, startAt: s.start_at, endAt: s.end_at, room: s.room_code, seat: s.seat })),
        qr: sign(officeId, examId, t.ticket_no),
        identity,
      };
    },

    /**
     * The ticket as an A4 PDF, rendered once per candidate and reused until anything it prints
     * changes (the hash covers every input, the photo by its id: a new photo is a new row).
     */
    async pdf(office: { id: number; name: string; timeZone: string }, candidateId: number, examId: number): Promise<Buffer> {
      const { exam, t } = await publishedTicket(office.id, candidateId, examId);
      const subjects = await repo.subjectsOf(t.application_id);
      const identity = (await identityOf(office.id, exam, [candidateId]))(candidateId);
      const input: Omit<TicketPdfInput, 'photo' | 'idno' | 'qr'> = {
        officeName: office.name,
        examName: exam.name,
        ticketNo: t.ticket_no,
        name: t.name,
        sex: t.sex,
        site: t.site,
        address: t.address,
        room: t.room,
        seat: t.seat,
        subjects: subjects.map((s) => ({ name: s.name, startAt: s.start_at, endAt: s.end_at, room: s.room_code, seat: s.seat })),
        rules: exam.exam_rules,
        timeZone: office.timeZone,
        // In the cache's hash: a check that ends changes the printed line.
        identityText: ticketIdentityText(identity),
      };
      // The ID number by its ciphertext and the QR code by the ticket number it signs: a cached
      // download neither decrypts nor signs.
      const hash = pdfCache.hash([input, t.idno_enc, t.photo_id]);
      const bytes = await pdfCache.get(`${office.id}:${t.application_id}`, hash, async () => {
        const photo = t.photo_id === null ? undefined : await deps.findPhoto(office.id, t.photo_id);
        return renderTicketPdf({ ...input, idno: cipher.decrypt(t.idno_enc), qr: sign(office.id, examId, t.ticket_no), photo });
      });
      // Recorded once the file exists: the candidate has the ticket, no reminder to print it (decision 038).
      await repo.markDownloaded(t.application_id, clock.nowIso());
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },

    /**
     * Moves one candidate after publishing, every paper of theirs to one room and seat (a
     * candidate keeps one seat for the whole exam). The ticket number stays.
     */
    async moveSeat(staff: StaffPrincipal, input: MoveSeatInput, ip: string): Promise<{ ticketNo: string | null }> {
      officeAdminScope(staff);
      await exams.require(staff.officeId, input.examId);
      const seats = await repo.seatsOf(staff.officeId, input.examId, input.applicationId);
      if (seats.length === 0) throw new AppError(ErrorCode.Validation, '该考生还没有座位（仅已编排的确认考生可调动）');
      const targets = seats;
      const room = await deps.findRoom(staff.officeId, input.roomId);
      if (!room || room.exam_id !== input.examId) throw notFound('room');
      if (input.seatNo > room.seats) throw new AppError(ErrorCode.Validation, `第 ${room.code} 考场只有 ${room.seats} 个座位`);
      const at = clock.nowIso();
      const ticketNo = await repo.commit(async (trx) => {
        for (const s of targets) {
          const papers = await repo.papersInRoom(trx, input.examId, s.sitting, room.id, input.applicationId);
          if (papers.some((p) => p !== s.subject_id))
            throw new AppError(ErrorCode.Validation, `第 ${room.code} 考场在该场次考的是另一科目（一个考场一场只考一科），请换一个考场`);
          try {
            await repo.moveSeat(trx, s.id, { site_id: room.site_id, room_id: room.id, seat: input.seatNo });
          } catch (err) {
            if (isUniqueViolation(err))
              throw new AppError(
                ErrorCode.Validation,
                `第 ${room.code} 考场第 ${String(input.seatNo).padStart(2, '0')} 号座位已有考生，请换一个座位`,
              );
            throw err;
          }
        }
        await repo.syncTicketPlace(trx, input.applicationId, at);
        const from = [...new Set(targets.map((s) => `${s.room_code} 考场 ${s.seat} 号`))].join('、');
        await audit.record(
          staff,
          '调动考生座位',
          `application:${input.applicationId}`,
          `${from} → ${room.code} 考场 ${input.seatNo} 号`,
          ip,
          trx,
        );
        return (await repo.ticketNoOf(trx, input.applicationId)) ?? null;
      });
      pdfCache.drop(`${staff.officeId}:${input.applicationId}`);
      return { ticketNo };
    },

    /** Whether a candidate's ticket is rendered and kept (for tests of the cache). */
    pdfCached(officeId: number, applicationId: number): boolean {
      return pdfCache.has(`${officeId}:${applicationId}`);
    },

    /** Sign-in sheets and door lists of a site's rooms (or one room) as one PDF. */
    async roomSheets(
      staff: StaffPrincipal,
      office: { name: string; timeZone: string },
      q: { examId: number; siteId: number; roomId?: number | undefined },
      ip: string,
    ): Promise<Buffer> {
      officeAdminScope(staff);
      const exam = await exams.require(staff.officeId, q.examId);
      const site = await repo.site(staff.officeId, q.examId, q.siteId);
      if (!site) throw notFound('site');
      const rows = await repo.roomSeats(staff.officeId, q.examId, q.siteId, q.roomId);
      if (rows.length === 0) throw new AppError(ErrorCode.Validation, '该考点（考场）还没有编排考生');
      const photoIds = [...new Set(rows.map((r) => r.photo_id).filter((id): id is number => id !== null))];
      const identity = await identityOf(
        staff.officeId,
        exam,
        rows.map((r) => r.candidate_id),
      );
      const photos = new Map<number, { mime: string; data: Buffer } | undefined>();
      for (const id of photoIds) photos.set(id, await deps.findPhoto(staff.officeId, id));
      const sittings: (RoomSheetSitting & { key: string })[] = [];
      let current: (RoomSheetSitting & { key: string }) | undefined;
      for (const r of rows) {
        const key = `${r.room_id}|${r.sitting}`;
        if (current?.key !== key) {
          current = { key, room: r.room, subject: r.subject, startAt: r.start_at, endAt: r.end_at, seats: [] };
          sittings.push(current);
        } else if (!current.subject.split('、').includes(r.subject)) current.subject += `、${r.subject}`;
        current.seats.push({
          seat: r.seat,
          ticketNo: r.ticket_no ?? '（未发布）',
          name: r.name,
          photo: r.photo_id === null ? undefined : photos.get(r.photo_id),
          identity: doorCheckLine(identity(r.candidate_id)),
        });
      }
      const bytes = await renderRoomSheets({
        officeName: office.name,
        examName: exam.name,
        site: site.name,
        address: site.address,
        timeZone: office.timeZone,
        sittings: sittings.map(({ key: _key, ...s }) => s),
      });
      await audit.record(staff, '下载考场签到表', `exam:${q.examId}`, `${site.name}：${sittings.length} 份`, ip);
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },

    /** The arrangement as a workbook: one row per seat. */
    async exportArrangement(staff: StaffPrincipal, examId: number, timeZone: string, ip: string): Promise<Buffer> {
      officeAdminScope(staff);
      const exam = await exams.require(staff.officeId, examId);
      const rows = await repo.arrangementRows(staff.officeId, examId);
      const identity = await identityOf(
        staff.officeId,
        exam,
        rows.map((r) => r.candidate_id),
      );
      const book = new ExcelJS.Workbook();
      const sheet = book.addWorksheet('考场编排');
      sheet.columns = [
        { header: '考点', width: 28 },
        { header: '考场', width: 8 },
        { header: '座位号', width: 8 },
        { header: '准考证号', width: 16 },
        { header: '姓名', width: 12 },
        { header: '岗位', width: 28 },
        { header: '科目', width: 18 },
        { header: '开考时间', width: 18 },
        { header: '身份核验', width: 30 },
      ];
      sheet.getRow(1).font = { bold: true };
      for (const r of rows)
        sheet.addRow([
          `${r.site_code} ${r.site}`,
          r.room,
          r.seat,
          r.ticket_no ?? '',
          r.name,
          r.position === null ? '' : `${r.position_code ?? ''} ${r.position}`,
          r.subject,
          zonedDateTime(r.start_at, timeZone),
          doorCheckLine(identity(r.candidate_id)),
        ]);
      await audit.record(staff, '导出考场编排', `exam:${examId}`, `${rows.length} 条`, ip);
      return Buffer.from(await book.xlsx.writeBuffer());
    },

    /**
     * The door check, for admins and reviewers: a reviewer checks only candidates of the units
     * they may see (the one scope rule of applications). Every check is audited, refusals too.
     */
    async verify(staff: StaffPrincipal, code: string, examId: number | undefined, timeZone: string, ip: string) {
      try {
        return await verifyCode(staff, code, examId, timeZone, ip);
      } catch (err) {
        if (err instanceof AppError) await audit.record(staff, '验证准考证', `exam:${examId ?? 0}`, `未通过：${err.message}`, ip);
        throw err;
      }
    },

    /**
     * The exam a door check opens on: one with a paper under way now, else one with a paper today
     * on the office's clock (the first to start), else the one whose next paper is nearest; only
     * exams with tickets published.
     */
    async doorCheckExam(staff: StaffPrincipal, timeZone: string): Promise<DoorCheckExam> {
      const now = clock.nowIso();
      const today = clock.today(timeZone);
      const papers = await repo.doorCheckPapers(staff.officeId);
      const todays =
        papers.find((p) => p.start_at <= now && now <= p.end_at) ?? papers.find((p) => zonedDay(p.start_at, timeZone) === today);
      if (todays) return { examId: todays.exam_id, today: true };
      const next = papers.find((p) => p.start_at > now);
      return { examId: next?.exam_id ?? null, today: false };
    },
  };

  async function verifyCode(staff: StaffPrincipal, code: string, examId: number | undefined, timeZone: string, ip: string) {
    const scope = applicationScope(staff);
    const claim = check(staff.officeId, code);
    if (!claim) throw new AppError(ErrorCode.Validation, '准考证二维码无效（伪造或被改动），请核对证件');
    if (examId !== undefined && claim.examId !== examId) {
      // Named, so door staff on the wrong exam see which one to switch to.
      const other = await repo.examWithTicketSettings(staff.officeId, claim.examId);
      throw new AppError(
        ErrorCode.Validation,
        other ? `该准考证属于「${other.name}」，不是本场考试；如在该考试的考场，请在上方切换考试` : '该准考证不属于本场考试',
      );
    }
    const t = await repo.ticketByNo(staff.officeId, claim.ticketNo);
    if (!t || t.exam_id !== claim.examId || !APPLICATION_STATES[t.status].sits)
      throw new AppError(ErrorCode.Validation, '准考证无效：查无此证或考生资格已取消');
    if (!inScope(scope, t.unit)) throw new AppError(ErrorCode.Forbidden, '该考生不在您的负责范围内，请由管理员核验');
    const photo = t.photo_id === null ? undefined : await deps.findPhoto(staff.officeId, t.photo_id);
    const identity = (await identityOf(staff.officeId, await exams.require(staff.officeId, t.exam_id), [t.candidate_id]))(t.candidate_id);
    // The paper at this door: the candidate's under way now, else their next one today.
    const now = clock.nowIso();
    const today = clock.today(timeZone);
    const papers = await repo.subjectsOf(t.application_id);
    const paper =
      papers.find((p) => p.start_at <= now && now <= p.end_at) ??
      papers.find((p) => p.start_at > now && zonedDay(p.start_at, timeZone) === today);
    const entry = await repo.checkIn({
      office_id: staff.officeId,
      exam_id: t.exam_id,
      application_id: t.application_id,
      ticket_no: t.ticket_no,
      subject_id: paper?.id ?? 0,
      staff_id: staff.id,
      at: now,
    });
    const repeat = entry.count > 1;
    await audit.record(
      staff,
      '验证准考证',
      `exam:${t.exam_id}`,
      `${t.ticket_no}${paper ? ` ${paper.name}` : ''}${repeat ? `：重复入场（第 ${entry.count} 次，首次 ${zonedDateTime(entry.firstAt, timeZone)}）` : ''}`,
      ip,
    );
    return {
      ticketNo: t.ticket_no,
      name: t.name,
      photo: photo ? `data:${photo.mime};base64,${photo.data.toString('base64')}` : null,
      site: t.site,
      room: t.room,
      seat: t.seat,
      paper: paper ? { name: paper.name, startAt: paper.start_at, endAt: paper.end_at } : null,
      checkedInAt: entry.firstAt,
      repeat,
      identity,
    };
  }
}
