import { ticketNumber, ticketTemplateSchema } from '@zhikaoyun/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  arrange,
  spread,
  type ArrangeCandidate,
  type ArrangeRoom,
  type ArrangeSubject,
} from '../src/modules/arrangement/arrangement/arrange';

const subjects: ArrangeSubject[] = [
  { id: 1, startAt: '2027-01-10T01:00:00.000Z' },
  { id: 2, startAt: '2027-01-10T06:00:00.000Z' },
  { id: 3, startAt: '2027-01-10T06:00:00.000Z' },
];

const inputArb = fc
  .record({
    seed: fc.string({ maxLength: 8 }),
    rooms: fc.array(fc.record({ siteId: fc.integer({ min: 1, max: 3 }), seats: fc.integer({ min: 1, max: 30 }) }), {
      minLength: 1,
      maxLength: 12,
    }),
    candidates: fc.array(fc.record({ positionId: fc.integer({ min: 1, max: 4 }), afternoon: fc.constantFrom(2, 3) }), { maxLength: 150 }),
  })
  .map(({ seed, rooms, candidates }) => ({
    seed,
    rooms: rooms.map((r, i): ArrangeRoom => ({ roomId: i + 1, siteId: r.siteId, seats: r.seats })),
    subjects,
    candidates: candidates.map((c, i): ArrangeCandidate => ({
      applicationId: i + 1,
      positionId: c.positionId,
      subjectIds: [1, c.afternoon],
    })),
  }));

describe('arrangement invariants (property)', () => {
  it('seats everyone once per sitting at one seat for all papers, never a seat twice, within capacity, one paper per room; same seed, same result', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const result = arrange(input);
        const again = arrange(input);
        expect(again).toEqual(result);
        const capacity = new Map(input.rooms.map((r) => [r.roomId, r.seats]));
        if (!result.ok) {
          expect(result.shortfalls.length).toBeGreaterThan(0);
          return;
        }
        const once = new Set<string>();
        const place = new Set<string>();
        const paperOfRoom = new Map<string, number>();
        for (const s of result.seats) {
          const k1 = `${s.sitting}|${s.applicationId}`;
          expect(once.has(k1)).toBe(false);
          once.add(k1);
          const k2 = `${s.sitting}|${s.roomId}|${s.seat}`;
          expect(place.has(k2)).toBe(false);
          place.add(k2);
          expect(s.seat).toBeGreaterThanOrEqual(1);
          expect(s.seat).toBeLessThanOrEqual(capacity.get(s.roomId)!);
          const k3 = `${s.sitting}|${s.roomId}`;
          const paper = paperOfRoom.get(k3);
          if (paper !== undefined) expect(paper).toBe(s.subjectId);
          paperOfRoom.set(k3, s.subjectId);
        }
        // Everyone, every subject they sit.
        expect(result.seats.length).toBe(input.candidates.reduce((n, c) => n + c.subjectIds.length, 0));
        // One seat for the whole exam: the same site, room and seat at every paper.
        const placeOf = new Map<number, string>();
        for (const s of result.seats) {
          const p = `${s.siteId}|${s.roomId}|${s.seat}`;
          expect(placeOf.get(s.applicationId) ?? p).toBe(p);
          placeOf.set(s.applicationId, p);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('avoids same-position neighbours wherever the room mix allows', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 40 }), (positions) => {
        const cands = positions.map((p, i) => ({ applicationId: i + 1, positionId: p, subjectIds: [1] }));
        const out = spread(cands);
        expect(out.map((c) => c.applicationId).sort((a, b) => a - b)).toEqual(cands.map((c) => c.applicationId));
        const counts = new Map<number, number>();
        for (const p of positions) counts.set(p, (counts.get(p) ?? 0) + 1);
        const largest = Math.max(0, ...counts.values());
        const possible = largest <= Math.ceil(positions.length / 2);
        const adjacent = out.filter((c, i) => i > 0 && out[i - 1]!.positionId === c.positionId).length;
        if (possible) expect(adjacent).toBe(0);
        else expect(adjacent).toBe(largest - (positions.length - largest) - 1);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses with the shortfall when seats run out', () => {
    const result = arrange({
      seed: 'x',
      rooms: [{ roomId: 1, siteId: 1, seats: 2 }],
      subjects: [subjects[0]!],
      candidates: [1, 2, 3].map((i) => ({ applicationId: i, positionId: 1, subjectIds: [1] })),
    });
    expect(result).toEqual({ ok: false, shortfalls: [{ needed: 3, available: 2, paperSets: 1 }] });
  });

  it('candidates of a paper set share rooms; a paper list holds only those who sit it, at their one seat', () => {
    const result = arrange({
      seed: 'sets',
      rooms: [1, 2, 3].map((i) => ({ roomId: i, siteId: 1, seats: 4 })),
      subjects,
      // 1-3 sit papers 1 and 2, 4-5 papers 1 and 3, 6 only paper 1.
      candidates: [
        ...[1, 2, 3].map((i) => ({ applicationId: i, positionId: 1, subjectIds: [1, 2] })),
        ...[4, 5].map((i) => ({ applicationId: i, positionId: 2, subjectIds: [3, 1] })),
        { applicationId: 6, positionId: 3, subjectIds: [1] },
      ],
    });
    if (!result.ok) throw new Error('expected seats');
    const roomOf = (a: number) => result.seats.find((s) => s.applicationId === a)!.roomId;
    expect(new Set([1, 2, 3].map(roomOf)).size).toBe(1);
    expect(new Set([4, 5].map(roomOf)).size).toBe(1);
    expect(new Set([roomOf(1), roomOf(4), roomOf(6)]).size).toBe(3);
    expect(
      result.seats
        .filter((s) => s.subjectId === 2)
        .map((s) => s.applicationId)
        .sort(),
    ).toEqual([1, 2, 3]);
    expect(
      result.seats
        .filter((s) => s.subjectId === 3)
        .map((s) => s.applicationId)
        .sort(),
    ).toEqual([4, 5]);
    expect(result.seats.filter((s) => s.applicationId === 6)).toHaveLength(1);
    // Rooms are not shared between sets: three sets, two rooms, refused although 8 seats ≥ 6.
    const short = arrange({
      seed: 'sets',
      rooms: [1, 2].map((i) => ({ roomId: i, siteId: 1, seats: 4 })),
      subjects,
      candidates: [
        { applicationId: 1, positionId: 1, subjectIds: [1, 2] },
        { applicationId: 2, positionId: 1, subjectIds: [1, 3] },
        { applicationId: 3, positionId: 1, subjectIds: [1] },
      ],
    });
    expect(short).toEqual({ ok: false, shortfalls: [{ needed: 3, available: 8, paperSets: 3 }] });
  });

  it('different seeds shuffle differently', () => {
    const input = {
      rooms: [{ roomId: 1, siteId: 1, seats: 30 }],
      subjects: [subjects[0]!],
      candidates: Array.from({ length: 30 }, (_, i) => ({ applicationId: i + 1, positionId: (i % 3) + 1, subjectIds: [1] })),
    };
    const a = arrange({ ...input, seed: 'a' });
    const b = arrange({ ...input, seed: 'b' });
    expect(a.ok && b.ok && a.seats.map((s) => s.applicationId).join() !== b.seats.map((s) => s.applicationId).join()).toBe(true);
  });
});

describe('ticket numbers', () => {
  it('default template: 2-digit year, exam code, site, room, seat; fixed length', () => {
    const t = '{YY}{EXAM}{SITE}{ROOM}{SEAT}';
    expect(ticketNumber(t, { year: 2027, examCode: '3', site: 1, room: 12, seat: 7, seq: 1 })).toBe('2703011207');
    expect(ticketTemplateSchema.safeParse(t).success).toBe(true);
    expect(ticketTemplateSchema.safeParse('{YY}{EXAM}').success).toBe(false);
    expect(ticketTemplateSchema.safeParse('{YY}abc{SEQ}').success).toBe(false);
  });

  it('are unique for distinct (site, room, seat) under the default template', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(fc.integer({ min: 1, max: 99 }), fc.integer({ min: 1, max: 99 }), fc.integer({ min: 1, max: 99 })), {
          selector: (t) => t.join(','),
          maxLength: 200,
        }),
        (places) => {
          const nos = places.map(([site, room, seat]) =>
            ticketNumber('{YY}{EXAM}{SITE}{ROOM}{SEAT}', { year: 2027, examCode: '01', site, room, seat, seq: 1 }),
          );
          expect(new Set(nos).size).toBe(nos.length);
          expect(new Set(nos.map((n) => n.length))).toEqual(new Set(nos.length ? [10] : []));
        },
      ),
    );
  });
});
