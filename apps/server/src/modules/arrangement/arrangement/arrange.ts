/**
 * Seat arrangement as a pure function: the same input and seed give the same seats.
 *
 * A candidate has one seat for the whole exam (decision 018): the same site, room and seat at
 * every paper they sit, which is the seat their ticket number is made of. Candidates who sit the
 * same papers (one "paper set") share rooms; each paper set takes whole rooms in order (sites in
 * order, rooms in order), so a room still holds one paper per sitting. A set's candidates are
 * shuffled with a generator seeded from the seed, cut into rooms, and inside a room ordered so
 * that two candidates of the same position sit in adjacent seats only when the room's mix leaves
 * no other way. Candidates who chose a site city take rooms of that city only, before anyone else;
 * the rest take whatever rooms are left.
 */

export interface ArrangeRoom {
  roomId: number;
  siteId: number;
  seats: number;
  /** The site's city ('' when not given). */
  city?: string;
}

export interface ArrangeSubject {
  id: number;
  /** The sitting: subjects with the same start sit at the same time. */
  startAt: string;
}

export interface ArrangeCandidate {
  applicationId: number;
  positionId: number;
  /** The subjects this candidate sits. */
  subjectIds: readonly number[];
  /** The site city the candidate chose; null or absent: any site. */
  city?: string | null;
}

export interface SeatAssignment {
  applicationId: number;
  subjectId: number;
  sitting: string;
  siteId: number;
  roomId: number;
  /** 1-based. */
  seat: number;
}

export interface Shortfall {
  /** The chosen city whose sites lack seats; absent: the exam as a whole. */
  city?: string;
  /** Candidates to seat (in that city). */
  needed: number;
  /** Seats of the rooms they may use. */
  available: number;
  /**
   * How many different paper sets those candidates sit: more than one, and rooms are not shared
   * between sets, so the seats needed can exceed the candidates by the sets' last rooms' spare seats.
   */
  paperSets: number;
}

export type ArrangeResult = { ok: true; seats: SeatAssignment[] } | { ok: false; shortfalls: Shortfall[] };

/** 32-bit FNV-1a of a string: the seed of the generator. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: small, fast, deterministic. */
export function seededRandom(seed: string): () => number {
  let a = hash(seed);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const t = items[i]!;
    items[i] = items[j]!;
    items[j] = t;
  }
  return items;
}

/**
 * Orders one room's candidates so that no two of the same position are adjacent when that is
 * possible (it is iff the largest position has at most ceil(n/2) of them): at each seat, the
 * position with the most candidates left that differs from the previous seat's; ties go to the
 * position met first in the shuffled order.
 */
export function spread(candidates: readonly ArrangeCandidate[]): ArrangeCandidate[] {
  const groups = new Map<number, ArrangeCandidate[]>();
  for (const c of candidates) {
    const g = groups.get(c.positionId);
    if (g) g.push(c);
    else groups.set(c.positionId, [c]);
  }
  const queues = [...groups.values()];
  const out: ArrangeCandidate[] = [];
  let prev = -1;
  for (let n = 0; n < candidates.length; n++) {
    let best = -1;
    for (let i = 0; i < queues.length; i++) {
      const q = queues[i]!;
      if (q.length === 0 || i === prev) continue;
      if (best === -1 || q.length > queues[best]!.length) best = i;
    }
    if (best === -1) best = prev;
    out.push(queues[best]!.shift()!);
    prev = best;
  }
  return out;
}

export function arrange(input: {
  seed: string;
  rooms: readonly ArrangeRoom[];
  subjects: readonly ArrangeSubject[];
  candidates: readonly ArrangeCandidate[];
}): ArrangeResult {
  const sittingOf = new Map(input.subjects.map((s) => [s.id, s.startAt]));
  // A paper set: the subjects a candidate sits, in time order (unknown ids dropped).
  const papersOf = (c: ArrangeCandidate) =>
    [...new Set(c.subjectIds)]
      .filter((id) => sittingOf.has(id))
      .sort((x, y) => (sittingOf.get(x)! < sittingOf.get(y)! ? -1 : sittingOf.get(x)! > sittingOf.get(y)! ? 1 : x - y));
  // Groups by city (chosen cities first, in order, then anywhere) and paper set.
  const groups = new Map<string, { city: string | null; papers: number[]; list: ArrangeCandidate[] }>();
  for (const c of [...input.candidates].sort((a, b) => a.applicationId - b.applicationId)) {
    const papers = papersOf(c);
    if (papers.length === 0) continue;
    const city = c.city ?? null;
    const key = `${city === null ? '1' : `0${city}`}|${papers.join(',')}`;
    const g = groups.get(key);
    if (g) g.list.push(c);
    else groups.set(key, { city, papers, list: [c] });
  }
  const ordered = [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, g]) => g);
  const random = seededRandom(input.seed);
  const seats: SeatAssignment[] = [];
  const used = new Set<number>();
  const needed = new Map<string | null, { n: number; sets: number }>();
  const short = new Set<string | null>();
  for (const g of ordered) {
    const list = shuffle([...g.list], random);
    const need = needed.get(g.city) ?? { n: 0, sets: 0 };
    needed.set(g.city, { n: need.n + list.length, sets: need.sets + 1 });
    let at = 0;
    let room = 0;
    while (at < list.length) {
      while (room < input.rooms.length && (used.has(room) || (g.city !== null && (input.rooms[room]!.city ?? '') !== g.city))) room += 1;
      const r = input.rooms[room];
      if (!r) {
        short.add(g.city);
        break;
      }
      used.add(room);
      if (r.seats <= 0) continue;
      const inRoom = spread(list.slice(at, at + r.seats));
      at += inRoom.length;
      inRoom.forEach((c, i) => {
        for (const paper of g.papers)
          seats.push({
            applicationId: c.applicationId,
            subjectId: paper,
            sitting: sittingOf.get(paper)!,
            siteId: r.siteId,
            roomId: r.roomId,
            seat: i + 1,
          });
      });
    }
  }
  if (short.size === 0) return { ok: true, seats };
  const shortfalls: Shortfall[] = [];
  const seatsIn = (city: string | null) =>
    input.rooms.filter((r) => city === null || (r.city ?? '') === city).reduce((n, r) => n + Math.max(0, r.seats), 0);
  for (const city of [...short].sort((a, b) => (a === null ? 1 : b === null ? -1 : a < b ? -1 : 1))) {
    if (city === null) {
      // Everyone: the whole exam's candidates against every seat.
      let n = 0;
      let sets = 0;
      for (const v of needed.values()) {
        n += v.n;
        sets += v.sets;
      }
      shortfalls.push({ needed: n, available: seatsIn(null), paperSets: sets });
    } else {
      const v = needed.get(city) ?? { n: 0, sets: 0 };
      shortfalls.push({ city, needed: v.n, available: seatsIn(city), paperSets: v.sets });
    }
  }
  return { ok: false, shortfalls };
}

/**
 * The arrangement's input as the worker thread takes it (decision 014): the confirmed
 * applications as columns (`-1`: no position / no city), the subjects each position sits, and
 * the rooms, subjects and seed as `arrange` takes them.
 */
export interface PackedArrangeInput {
  seed: string;
  rooms: ArrangeRoom[];
  subjects: ArrangeSubject[];
  /** The papers of a position without its own list: all of the exam's. */
  allSubjects: number[];
  links: { position_id: number; subject_id: number }[];
  application: Int32Array;
  position: Int32Array;
  city: Int32Array;
  cities: string[];
}

/** The seats as columns, the sitting an index into `sittings`. */
export interface PackedSeats {
  sittings: string[];
  sitting: Int32Array;
  application: Int32Array;
  subject: Int32Array;
  site: Int32Array;
  room: Int32Array;
  seat: Int32Array;
}

export type PackedArrangeResult = { ok: true; seats: PackedSeats; rooms: number; sites: number } | { ok: false; shortfalls: Shortfall[] };

export function arrangePacked(input: PackedArrangeInput): PackedArrangeResult {
  const byPosition = new Map<number, number[]>();
  for (const l of input.links) {
    const list = byPosition.get(l.position_id);
    if (list) list.push(l.subject_id);
    else byPosition.set(l.position_id, [l.subject_id]);
  }
  const candidates: ArrangeCandidate[] = [];
  for (let i = 0; i < input.application.length; i++) {
    const position = input.position[i]!;
    const city = input.city[i]!;
    candidates.push({
      applicationId: input.application[i]!,
      positionId: position < 0 ? 0 : position,
      subjectIds: (position >= 0 && byPosition.get(position)) || input.allSubjects,
      city: city < 0 ? null : (input.cities[city] ?? null),
    });
  }
  const result = arrange({ seed: input.seed, rooms: input.rooms, subjects: input.subjects, candidates });
  if (!result.ok) return result;
  const n = result.seats.length;
  const sittings: string[] = [];
  const sittingIndex = new Map<string, number>();
  const seats: PackedSeats = {
    sittings,
    sitting: new Int32Array(n),
    application: new Int32Array(n),
    subject: new Int32Array(n),
    site: new Int32Array(n),
    room: new Int32Array(n),
    seat: new Int32Array(n),
  };
  result.seats.forEach((s, i) => {
    let at = sittingIndex.get(s.sitting);
    if (at === undefined) {
      at = sittings.push(s.sitting) - 1;
      sittingIndex.set(s.sitting, at);
    }
    seats.sitting[i] = at;
    seats.application[i] = s.applicationId;
    seats.subject[i] = s.subjectId;
    seats.site[i] = s.siteId;
    seats.room[i] = s.roomId;
    seats.seat[i] = s.seat;
  });
  return { ok: true, seats, rooms: new Set(seats.room).size, sites: new Set(seats.site).size };
}

/**
 * 补排: seats candidates confirmed (or switched) after the tickets were published, without moving
 * anyone: each in a room whose papers at their sittings are theirs or none (one paper per room and
 * sitting still holds), at the lowest seat free at every sitting of that room and not `blocked`,
 * the same seat for all their papers. Rooms already holding one of their papers come first, so a
 * paper set keeps to its rooms. Those for whom no seat is left are answered, not seated.
 */
export function seatLate(input: {
  rooms: readonly ArrangeRoom[];
  subjects: readonly ArrangeSubject[];
  taken: readonly { roomId: number; subjectId: number; sitting: string; seat: number }[];
  /** `${roomId}|${seat}` that may not be given (a published ticket number already carries it). */
  blocked?: ReadonlySet<string>;
  candidates: readonly ArrangeCandidate[];
}): { seats: SeatAssignment[]; unplaced: number[] } {
  const sittingOf = new Map(input.subjects.map((s) => [s.id, s.startAt]));
  const paperAt = new Map<number, Map<string, number>>();
  const used = new Map<number, Set<number>>();
  for (const r of input.rooms) {
    paperAt.set(r.roomId, new Map());
    used.set(r.roomId, new Set());
  }
  for (const t of input.taken) {
    paperAt.get(t.roomId)?.set(t.sitting, t.subjectId);
    used.get(t.roomId)?.add(t.seat);
  }
  const seats: SeatAssignment[] = [];
  const unplaced: number[] = [];
  for (const c of [...input.candidates].sort((a, b) => a.applicationId - b.applicationId)) {
    const papers = [...new Set(c.subjectIds)].filter((id) => sittingOf.has(id));
    if (papers.length === 0) continue;
    const fits = (r: ArrangeRoom) =>
      (c.city == null || (r.city ?? '') === c.city) &&
      papers.every((p) => {
        const there = paperAt.get(r.roomId)!.get(sittingOf.get(p)!);
        return there === undefined || there === p;
      });
    const hosts = (r: ArrangeRoom) => papers.some((p) => paperAt.get(r.roomId)!.get(sittingOf.get(p)!) === p);
    const freeSeat = (r: ArrangeRoom) => {
      const taken = used.get(r.roomId)!;
      for (let n = 1; n <= r.seats; n++) if (!taken.has(n) && !input.blocked?.has(`${r.roomId}|${n}`)) return n;
      return 0;
    };
    const candidates = input.rooms.filter(fits);
    let room: ArrangeRoom | undefined;
    let seat = 0;
    for (const r of [...candidates.filter(hosts), ...candidates.filter((x) => !hosts(x))]) {
      seat = freeSeat(r);
      if (seat > 0) {
        room = r;
        break;
      }
    }
    if (!room) {
      unplaced.push(c.applicationId);
      continue;
    }
    used.get(room.roomId)!.add(seat);
    for (const p of papers) {
      const sitting = sittingOf.get(p)!;
      paperAt.get(room.roomId)!.set(sitting, p);
      seats.push({ applicationId: c.applicationId, subjectId: p, sitting, siteId: room.siteId, roomId: room.roomId, seat });
    }
  }
  return { seats, unplaced };
}
