/**
 * Seat arrangement as a pure function: the same input and seed give the same seats.
 *
 * Per sitting (subjects starting at the same time), each paper (subject) takes whole rooms in
 * order (sites in order, rooms in order), so a room holds one paper per sitting. A paper's
 * candidates are shuffled with a generator seeded from the seed and the sitting, cut into rooms,
 * and inside a room ordered so that two candidates of the same position sit in adjacent seats
 * only when the room's mix leaves no other way. Candidates who chose a site city take rooms of that
 * city only, before anyone else; the rest take whatever rooms the sitting has left.
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
  sitting: string;
  /** The chosen city whose sites lack seats; absent: the exam as a whole. */
  city?: string;
  needed: number;
  available: number;
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
  const sittings = [...new Set(input.subjects.map((s) => s.startAt))].sort();
  const byPaper = new Map<number, ArrangeCandidate[]>();
  for (const c of [...input.candidates].sort((a, b) => a.applicationId - b.applicationId)) {
    for (const s of c.subjectIds) {
      const list = byPaper.get(s);
      if (list) list.push(c);
      else byPaper.set(s, [c]);
    }
  }
  const seats: SeatAssignment[] = [];
  const shortfalls: Shortfall[] = [];
  const totalSeats = input.rooms.reduce((n, r) => n + r.seats, 0);
  const citySeats = new Map<string, number>();
  for (const r of input.rooms) citySeats.set(r.city ?? '', (citySeats.get(r.city ?? '') ?? 0) + r.seats);
  for (const sitting of sittings) {
    const random = seededRandom(`${input.seed}|${sitting}`);
    const papers = input.subjects.filter((s) => s.startAt === sitting).sort((a, b) => a.id - b.id);
    // City groups first (they can only use their city's rooms), then everyone else, paper by paper.
    const groups: { paper: number; city: string | null; list: ArrangeCandidate[] }[] = [];
    const anywhere: typeof groups = [];
    for (const paper of papers) {
      const byCity = new Map<string | null, ArrangeCandidate[]>();
      for (const c of byPaper.get(paper.id) ?? []) {
        const city = c.city ?? null;
        const list = byCity.get(city);
        if (list) list.push(c);
        else byCity.set(city, [c]);
      }
      for (const city of [...byCity.keys()].filter((c): c is string => c !== null).sort())
        groups.push({ paper: paper.id, city, list: byCity.get(city)! });
      anywhere.push({ paper: paper.id, city: null, list: byCity.get(null) ?? [] });
    }
    const used = new Set<number>();
    const needed = new Map<string | null, number>();
    const short = new Set<string | null>();
    for (const g of [...groups, ...anywhere]) {
      const list = shuffle([...g.list], random);
      needed.set(g.city, (needed.get(g.city) ?? 0) + list.length);
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
        inRoom.forEach((c, i) =>
          seats.push({ applicationId: c.applicationId, subjectId: g.paper, sitting, siteId: r.siteId, roomId: r.roomId, seat: i + 1 }),
        );
      }
    }
    for (const city of short) {
      if (city === null) {
        const all = [...needed.values()].reduce((n, v) => n + v, 0);
        shortfalls.push({ sitting, needed: all, available: totalSeats });
      } else shortfalls.push({ sitting, city, needed: needed.get(city) ?? 0, available: citySeats.get(city) ?? 0 });
    }
  }
  return shortfalls.length > 0 ? { ok: false, shortfalls } : { ok: true, seats };
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
