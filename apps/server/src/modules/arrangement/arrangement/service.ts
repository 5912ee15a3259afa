import {
  awaitingSwitchNote,
  DEFAULT_TICKET_TEMPLATE,
  DEFAULT_TIME_ZONE,
  ErrorCode,
  ticketNumber,
  zonedDateTime,
  type LateArrangeResult,
  type ArrangementOverview,
  type ArrangeSeatsResult,
  type ArrangeSeatsInput,
  type ChooseSiteCityInput,
  type SiteCityChoice,
  type SeatedCandidate,
  type ExamSiteInput,
  type ExamSubjectInput,
  type SaveExamRoomInput,
  type SiteImportResult,
  APPLICATION_STATES,
} from '@zhikaoyun/shared';
import { randomBytes } from 'node:crypto';
import { AppError, notFound } from '../../../lib/app-error';
import { clock } from '../../../lib/clock';
import type { StaffPrincipal } from '../../../plugins/auth';
import type { AuditService } from '../../platform/audit/service';
import type { ExamLookup } from '../../content/exams/lookup';
import { officeAdminScope } from '../../access/scope';
import { arrangePacked, seatLate, type PackedArrangeInput, type PackedArrangeResult, type PackedSeats } from './arrange';
import type { ArrangementRepository, SeatRow } from './repository';
import type { readSiteSheet } from './sheet';
import type { RowSource } from '../../../lib/row-source';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema';

export interface ArrangementDeps {
  repo: ArrangementRepository;
  audit: AuditService;
  exams: ExamLookup;
  /** Off the event loop (a worker thread, decision 014): the site sheet read and the seats computed. */
  heavy: {
    readSites(examId: number, file: Buffer): ReturnType<typeof readSiteSheet>;
    arrange(input: PackedArrangeInput): Promise<PackedArrangeResult>;
  };
}

/**
 * Subjects, sites with rooms, and the seat arrangement of an exam's confirmed candidates. The
 * arrangement runs in one transaction, reproducible from its seed (kept in the audit log), and may
 * be re-run until tickets are published.
 */
export function createArrangementService(deps: ArrangementDeps) {
  const { repo, audit, exams } = deps;

  async function openExam(officeId: number, examId: number) {
    const exam = await exams.require(officeId, examId);
    return exam;
  }
  async function unpublished(officeId: number, examId: number) {
    const exam = await openExam(officeId, examId);
    if (exam.tickets_published_at !== null)
      throw new AppError(ErrorCode.Validation, '准考证已发布，编排不能再改；如需调整请单独调动考生座位');
    return exam;
  }

  const CHOICE_OFF = '本考试不提供考点城市选择，考点由考试机构统一安排';

  async function ownApplication(officeId: number, candidateId: number, examId: number) {
    const app = await repo.ownApplication(candidateId, examId);
    if (!app || app.office_id !== officeId) throw notFound('ownApplication');
    return app;
  }

  return {
    /** The cities of a published exam's sites, for candidates to choose from; refused when the exam does not offer the choice. */
    async siteCities(officeId: number, examId: number): Promise<{ cities: string[] }> {
      const exam = await exams.requirePublished(officeId, examId);
      if (exam.site_city_choice !== 1) throw new AppError(ErrorCode.Validation, CHOICE_OFF);
      return { cities: await repo.siteCities(examId) };
    },

    /** The candidate's city choice on one of their applications, with what they may choose. */
    async myCity(officeId: number, candidateId: number, examId: number): Promise<SiteCityChoice> {
      const app = await ownApplication(officeId, candidateId, examId);
      if (app.site_city_choice !== 1) return { enabled: false, cities: [], city: app.site_city, arranged: false };
      const [cities, arranged] = await Promise.all([repo.siteCities(app.exam_id), repo.examSeated(app.exam_id)]);
      return { enabled: true, cities, city: app.site_city, arranged };
    },

    /** Chooses (or changes) the site city of an approved or confirmed application, until seats are arranged. */
    async chooseCity(officeId: number, candidateId: number, input: ChooseSiteCityInput): Promise<{ city: string }> {
      const app = await ownApplication(officeId, candidateId, input.examId);
      if (app.site_city_choice !== 1) throw new AppError(ErrorCode.Validation, CHOICE_OFF);
      if (!APPLICATION_STATES[app.status].seatBound) throw new AppError(ErrorCode.Validation, '报名审核通过后才能选择考点城市');
      if (await repo.examSeated(app.exam_id))
        throw new AppError(ErrorCode.Validation, '考场已编排，考点城市不能再修改；如有特殊情况请联系考试机构');
      const cities = await repo.siteCities(app.exam_id);
      if (!cities.includes(input.city))
        throw new AppError(
          ErrorCode.Validation,
          cities.length > 0 ? `${input.city} 没有本考试的考点，请从 ${cities.join('、')} 中选择` : '本考试尚未设置考点城市，请稍后再选',
        );
      await repo.setSiteCity(app.id, input.city, clock.nowIso());
      return { city: input.city };
    },

    /** Seated candidates whose ticket number or name contains `q`, with their seats: for moving a seat. */
    async findSeated(staff: StaffPrincipal, examId: number, q: string): Promise<SeatedCandidate[]> {
      officeAdminScope(staff);
      await openExam(staff.officeId, examId);
      const rows = await repo.findSeated(staff.officeId, examId, q, 20);
      const out = new Map<number, SeatedCandidate>();
      for (const r of rows) {
        let c = out.get(r.application_id);
        if (!c) {
          c = { applicationId: r.application_id, name: r.name, ticketNo: r.ticket_no ?? null, seats: [] };
          out.set(r.application_id, c);
        }
        c.seats.push({
          subjectId: r.subject_id,
          subject: r.subject,
          startAt: r.start_at,
          site: r.site,
          roomId: r.room_id,
          room: r.room,
          seat: r.seat,
        });
      }
      return [...out.values()];
    },

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

    /** Sites with their rooms, seats and how many sit there; the seed and the ticket settings. */
    async overview(staff: StaffPrincipal, examId: number): Promise<ArrangementOverview> {
      officeAdminScope(staff);
      await openExam(staff.officeId, examId);
      const published = (await repo.exam(staff.officeId, examId))?.tickets_published_at != null;
      const [settings, sites, rooms, perRoom, seated, confirmed, awaitingSwitch, placed] = await Promise.all([
        repo.ticketSettings(staff.officeId, examId),
        repo.sites(staff.officeId, examId),
        repo.rooms(staff.officeId, examId),
        repo.seatedPerRoom(staff.officeId, examId),
        repo.seatedCandidates(staff.officeId, examId),
        repo.confirmedCount(staff.officeId, examId),
        repo.awaitingSwitch(staff.officeId, examId),
        repo.confirmedPlaced(staff.officeId, examId, published ? 'ticket' : 'seat'),
      ]);
      const inRoom = new Map(perRoom.map((r) => [r.room_id, Number(r.n)]));
      return {
        confirmed,
        seated,
        awaitingSwitch,
        awaitingSwitchNote: awaitingSwitchNote(awaitingSwitch, settings?.switch_end ?? null, clock.nowIso()),
        unseated: Math.max(0, confirmed - awaitingSwitch - placed),
        seed: settings?.arrangement_seed ?? null,
        examCode: settings?.exam_code ?? '',
        ticketTemplate: settings?.ticket_template ?? '',
        ticketsPublishedAt: settings?.tickets_published_at ?? null,
        printStart: settings?.print_start ?? null,
        printEnd: settings?.print_end ?? null,
        sites: sites.map((s) => {
          const own = rooms
            .filter((r) => r.site_id === s.id)
            .map((r) => ({ id: r.id, code: r.code, seats: r.seats, seated: inRoom.get(r.id) ?? 0 }));
          return {
            id: s.id,
            code: s.code,
            name: s.name,
            address: s.address,
            city: s.city,
            seats: own.reduce((n, r) => n + r.seats, 0),
            seated: own.reduce((n, r) => n + r.seated, 0),
            rooms: own,
          };
        }),
      };
    },

    /**
     * 补排 after publishing: candidates confirmed without a seat (they confirmed or switched after
     * the arrangement) get a free seat, the same for all their papers, and a ticket number by the
     * exam's template; nobody else moves. Candidates of a cancelled position still wait.
     */
    async arrangeLate(staff: StaffPrincipal, examId: number, ip: string): Promise<LateArrangeResult> {
      officeAdminScope(staff);
      const exam = await openExam(staff.officeId, examId);
      if (exam.tickets_published_at === null) throw new AppError(ErrorCode.Validation, '准考证尚未发布：请直接重新编排座位');
      const at = clock.nowIso();
      return repo.commit(async (trx) => {
        const [settings, subjects, rooms, { apps, links }, allSeats, tickets] = await Promise.all([
          repo.ticketSettings(staff.officeId, examId),
          repo.subjects(staff.officeId, examId, trx),
          repo.rooms(staff.officeId, examId, trx),
          repo.confirmed(staff.officeId, examId, trx),
          repo.examSeats(staff.officeId, examId, trx),
          repo.tickets(staff.officeId, examId, trx),
        ]);
        let seats = allSeats;
        // Whoever holds no ticket: confirmed or switched after the arrangement, or seated before
        // their position was cancelled and switched since (their old seat is given anew).
        const ticketed = new Set(tickets.map((x) => x.application_id));
        const waiting = apps.filter((a) => !ticketed.has(a.id));
        if (waiting.length === 0) throw new AppError(ErrorCode.Validation, '没有需要补排的考生：已确认考生都已有准考证');
        const stale = new Set(waiting.map((a) => a.id));
        await repo.dropUnticketedSeats(trx, staff.officeId, examId, [
          ...new Set(seats.filter((x) => stale.has(x.application_id)).map((x) => x.application_id)),
        ]);
        seats = seats.filter((x) => !stale.has(x.application_id));
        const byPosition = new Map<number, number[]>();
        for (const l of links) byPosition.set(l.position_id, [...(byPosition.get(l.position_id) ?? []), l.subject_id]);
        const all = subjects.map((x) => x.id);
        const byCity = exam.site_city_choice === 1;
        const candidates = waiting.map((a) => ({
          applicationId: a.id,
          positionId: a.position_id ?? 0,
          subjectIds: (a.position_id !== null && byPosition.get(a.position_id)) || all,
          city: byCity ? a.site_city : null,
        }));
        const roomOf = new Map(rooms.map((r) => [r.id, r]));
        const numbers = new Set(tickets.map((x) => x.ticket_no));
        const year = Number(zonedDateTime(subjects[0]?.start_at ?? at, DEFAULT_TIME_ZONE).slice(0, 4));
        const template = settings?.ticket_template ?? DEFAULT_TICKET_TEMPLATE;
        const numberOf = (roomId: number, seat: number, seq: number) => {
          const r = roomOf.get(roomId)!;
          return ticketNumber(template, {
            year,
            examCode: settings?.exam_code ?? '01',
            site: Number(r.site_code),
            room: Number(r.code),
            seat,
            seq,
          });
        };
        // A seat whose number a published ticket already carries (its holder moved away) is passed over.
        const blocked = new Set<string>();
        let placed = seatLate({
          rooms: rooms.map((r) => ({ roomId: r.id, siteId: r.site_id, seats: r.seats, city: r.city })),
          subjects: subjects.map((x) => ({ id: x.id, startAt: x.start_at })),
          taken: seats.map((x) => ({ roomId: x.room_id, subjectId: x.subject_id, sitting: x.sitting, seat: x.seat })),
          blocked,
          candidates,
        });
        for (let round = 0; round < 20; round++) {
          const clash = [...new Map(placed.seats.map((x) => [x.applicationId, x])).values()].filter((x, i) =>
            numbers.has(numberOf(x.roomId, x.seat, tickets.length + i + 1)),
          );
          if (clash.length === 0) break;
          for (const x of clash) blocked.add(`${x.roomId}|${x.seat}`);
          placed = seatLate({
            rooms: rooms.map((r) => ({ roomId: r.id, siteId: r.site_id, seats: r.seats, city: r.city })),
            subjects: subjects.map((x) => ({ id: x.id, startAt: x.start_at })),
            taken: seats.map((x) => ({ roomId: x.room_id, subjectId: x.subject_id, sitting: x.sitting, seat: x.seat })),
            blocked,
            candidates,
          });
        }
        const firsts = [...new Map(placed.seats.map((x) => [x.applicationId, x])).values()];
        if (firsts.length === 0)
          throw new AppError(ErrorCode.Validation, `座位不足：${waiting.length} 名考生无处补排（同一考场同一场次只考一个科目）`);
        await repo.insertSeats(
          trx,
          staff.officeId,
          examId,
          placed.seats.map((x) => ({
            sitting: x.sitting,
            subject_id: x.subjectId,
            application_id: x.applicationId,
            site_id: x.siteId,
            room_id: x.roomId,
            seat: x.seat,
          })),
        );
        try {
          await repo.insertTickets(
            trx,
            firsts.map((x, i) => ({
              application_id: x.applicationId,
              office_id: staff.officeId,
              exam_id: examId,
              ticket_no: numberOf(x.roomId, x.seat, tickets.length + i + 1),
              site_id: x.siteId,
              room_id: x.roomId,
              seat: x.seat,
              updated_at: at,
            })),
          );
        } catch {
          throw new AppError(ErrorCode.Validation, '准考证号与本机构已有的准考证号重复，请联系技术支持');
        }
        await audit.record(
          staff,
          '补排考场',
          `exam:${examId}`,
          `补排 ${firsts.length} 人${placed.unplaced.length > 0 ? `；${placed.unplaced.length} 人座位不足未补排` : ''}`,
          ip,
          trx,
        );
        return { arranged: firsts.length, unplaced: placed.unplaced.length };
      });
    },

    async arrangeSeats(staff: StaffPrincipal, input: ArrangeSeatsInput, ip: string): Promise<ArrangeSeatsResult> {
      officeAdminScope(staff);
      const exam = await unpublished(staff.officeId, input.examId);
      const seed = input.seed && input.seed.length > 0 ? input.seed : randomBytes(6).toString('hex');
      return repo.commit(async (trx) => {
        const summary = await seatExam(repo, trx, staff.officeId, input.examId, seed, (packed) => deps.heavy.arrange(packed));
        await audit.record(
          staff,
          '编排考场',
          `exam:${input.examId}`,
          `种子 ${seed}：${summary.arranged} 人，${summary.rooms} 个考场，${summary.sites} 个考点${summary.awaitingSwitch > 0 ? `；${summary.awaitingSwitch} 人所报岗位已取消，未编排` : ''}`,
          ip,
          trx,
        );
        return { ...summary, note: awaitingSwitchNote(summary.awaitingSwitch, exam.switch_end, clock.nowIso()) };
      });
    },
  };
}

/**
 * Seats an exam's confirmed candidates inside the caller's transaction: the capacity check first,
 * then every seat written at once. Nothing is written when seats run out (the refusal names the
 * shortfall per sitting and the sites' capacity). The console's arrangement and the demo seed
 * both come through here.
 */
export async function seatExam(
  repo: ArrangementRepository,
  trx: Kysely<DB>,
  officeId: number,
  examId: number,
  seed: string,
  compute: (input: PackedArrangeInput) => Promise<PackedArrangeResult> = async (input) => arrangePacked(input),
): Promise<{ arranged: number; rooms: number; sites: number; awaitingSwitch: number }> {
  const [exam, subjects, sites, rooms, { apps, links }, awaitingSwitch] = await Promise.all([
    repo.exam(officeId, examId, trx),
    repo.subjects(officeId, examId, trx),
    repo.sites(officeId, examId, trx),
    repo.rooms(officeId, examId, trx),
    repo.confirmed(officeId, examId, trx),
    repo.awaitingSwitch(officeId, examId, trx),
  ]);
  if (subjects.length === 0) throw new AppError(ErrorCode.Validation, '请先添加考试科目');
  if (rooms.length === 0) throw new AppError(ErrorCode.Validation, '请先添加考点和考场');
  // Choices kept from while the setting was on are ignored once it is off.
  const byCity = exam?.site_city_choice === 1;
  const cities: string[] = [];
  const cityIndex = new Map<string, number>();
  const application = new Int32Array(apps.length);
  const position = new Int32Array(apps.length);
  const city = new Int32Array(apps.length);
  apps.forEach((a, i) => {
    application[i] = a.id;
    position[i] = a.position_id ?? -1;
    let c = -1;
    if (byCity && a.site_city !== null) {
      c = cityIndex.get(a.site_city) ?? cities.push(a.site_city) - 1;
      cityIndex.set(a.site_city, c);
    }
    city[i] = c;
  });
  const result = await compute({
    seed,
    rooms: rooms.map((r) => ({ roomId: r.id, siteId: r.site_id, seats: r.seats, city: r.city })),
    subjects: subjects.map((s) => ({ id: s.id, startAt: s.start_at })),
    allSubjects: subjects.map((s) => s.id),
    links,
    application,
    position,
    city,
    cities,
  });
  if (!result.ok) {
    const capacity = sites
      .map((s) => `${s.name} ${rooms.filter((r) => r.site_id === s.id).reduce((n, r) => n + r.seats, 0)} 座`)
      .join('、');
    // Candidates who sit different papers never share a room (a room holds one paper a sitting).
    const sets = (n: number) => (n > 1 ? `（考生分 ${n} 种科目组合，不同组合不同考场，每人各科同一座位）` : '');
    const cityLines = result.shortfalls
      .filter((f) => f.city !== undefined)
      .map((f) => `${f.city}：有 ${f.needed} 人选择该城市${sets(f.paperSets)}，该城市考点仅 ${f.available} 个座位`);
    if (cityLines.length > 0)
      throw new AppError(ErrorCode.Validation, `考点城市座位不足，未做任何编排：${cityLines.join('；')}。请在这些城市增加考场后再编排`);
    const lines = result.shortfalls.map((f) => `需为 ${f.needed} 名考生安排座位${sets(f.paperSets)}，现有 ${f.available} 个座位`);
    throw new AppError(ErrorCode.Validation, `座位不足，未做任何编排：${lines.join('；')}；现有考点：${capacity}。请增加考场后再编排`);
  }
  await repo.replaceSeats(trx, officeId, examId, seatRowsOf(result.seats));
  await repo.setSeed(trx, examId, seed);
  return { arranged: new Set(result.seats.application).size, rooms: result.rooms, sites: result.sites, awaitingSwitch };
}

/** Packed seats as the rows the writer inserts, made a chunk at a time. */
function seatRowsOf(p: PackedSeats): RowSource<SeatRow> {
  return {
    length: p.application.length,
    slice(start, end) {
      const out: SeatRow[] = [];
      for (let i = start; i < Math.min(end, p.application.length); i++)
        out.push({
          sitting: p.sittings[p.sitting[i]!]!,
          subject_id: p.subject[i]!,
          application_id: p.application[i]!,
          site_id: p.site[i]!,
          room_id: p.room[i]!,
          seat: p.seat[i]!,
        });
      return out;
    },
  };
}
