import {
  awaitingSwitchNote,
  ErrorCode,
  type ArrangementOverview,
  type ArrangeSeatsInput,
  type ArrangeSeatsResult,
  type SeatedCandidate,
} from '@zhikaoyun/shared';
import type { Kysely } from 'kysely';
import { randomBytes } from 'node:crypto';
import type { DB } from '../../../db/schema';
import { AppError } from '../../../lib/app-error';
import { clock } from '../../../lib/clock';
import type { RowSource } from '../../../lib/row-source';
import type { StaffPrincipal } from '../../../plugins/auth';
import { officeAdminScope } from '../../access/scope';
import { arrangePacked, type PackedArrangeInput, type PackedArrangeResult, type PackedSeats } from './arrange';
import { arrangementExams } from './guards';
import type { ArrangementRepository, SeatRow } from './repository';
import type { ArrangementDeps } from './service';

/** The seat arrangement: computed from a seed, written whole, and what it came to. */
export function createSeatingService(deps: ArrangementDeps) {
  const { repo, audit } = deps;
  const { openExam, unpublished } = arrangementExams(deps.exams);
  return {
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
