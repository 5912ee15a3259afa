import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { competitionRanks } from '../src/scores/scores';
import { combinedScore, medicalEntrants } from '../src/scores/stages';

/** A final ranking with many ties, some out (failed 体检 or gave up), in rank order. */
const rankingArb = fc
  .array(fc.record({ total: fc.integer({ min: 0, max: 4 }), out: fc.integer({ min: 0, max: 3 }).map((n) => n === 0) }), { maxLength: 30 })
  .map((xs) => {
    const ranks = competitionRanks(xs.map((x) => x.total));
    return xs.map((x, i) => ({ rank: ranks[i]!, out: x.out })).sort((a, b) => a.rank - b.rank);
  });

describe('who goes to 体检', () => {
  it('takes one per post by rank, everyone tied with the last included', () => {
    const e = (ranks: number[], out: number[] = []) => ranks.map((rank, i) => ({ rank, out: out.includes(i) }));
    expect(medicalEntrants(e([1, 2, 3, 4]), 2)).toEqual([true, true, false, false]);
    expect(medicalEntrants(e([1, 2, 2, 4]), 2)).toEqual([true, true, true, false]);
    // The second fails: the third steps in (递补).
    expect(medicalEntrants(e([1, 2, 3, 4], [1]), 2)).toEqual([true, true, true, false]);
    expect(medicalEntrants(e([1, 2, 3]), 0)).toEqual([false, false, false]);
  });

  it('always has headcount standing when enough are ranked, takes a prefix, and never splits a tie', () => {
    fc.assert(
      fc.property(rankingArb, fc.integer({ min: 0, max: 6 }), (ranking, headcount) => {
        const take = medicalEntrants(ranking, headcount);
        const taken = ranking.filter((_, i) => take[i]);
        const standing = taken.filter((x) => !x.out).length;
        const available = ranking.filter((x) => !x.out).length;
        expect(standing).toBeGreaterThanOrEqual(Math.min(headcount, available));
        // A prefix of the ranking.
        const first = take.indexOf(false);
        if (first >= 0) expect(take.slice(first).every((t) => !t)).toBe(true);
        // No tie is split between taken and not taken.
        ranking.forEach((x, i) => ranking.forEach((y, j) => x.rank === y.rank && expect(take[i]).toBe(take[j])));
      }),
    );
  });
});

describe('combined score', () => {
  it('weights written and interview in percent, in hundredths', () => {
    expect(combinedScore(8400, 8000, 40)).toBe(8240);
    expect(combinedScore(7500, 9000, 50)).toBe(8250);
    expect(combinedScore(7500, 9000, 0)).toBe(7500);
    expect(combinedScore(7500, 9000, 100)).toBe(9000);
  });

  it('lies between the two and never falls when either part rises', () => {
    const h = fc.integer({ min: 0, max: 20_000 });
    fc.assert(
      fc.property(h, h, fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 500 }), (w, i, weight, more) => {
        const c = combinedScore(w, i, weight);
        expect(c).toBeGreaterThanOrEqual(Math.min(w, i));
        expect(c).toBeLessThanOrEqual(Math.max(w, i));
        expect(combinedScore(w + more, i, weight)).toBeGreaterThanOrEqual(c);
        expect(combinedScore(w, i + more, weight)).toBeGreaterThanOrEqual(c);
      }),
    );
  });
});
