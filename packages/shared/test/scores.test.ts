import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  competitionRanks,
  interviewNeed,
  maskName,
  rankPosition,
  ratioFor,
  saveScoreRulesSchema,
  type RankEntry,
} from '../src/scores/scores';

/** Rank as the rule says it in words: one more than the number of people strictly above. */
const referenceRank = (totals: readonly number[], i: number) => 1 + totals.filter((t) => t > totals[i]!).length;

/** Totals in hundredths with many ties (a small range), some absent (null). */
const entryArb = fc.record({
  total: fc.option(fc.integer({ min: 5000, max: 5010 }), { nil: null, freq: 5 }),
  qualified: fc.boolean(),
});
const positionArb = fc.array(entryArb, { maxLength: 40 });

describe('competition ranking', () => {
  it('ranks 72, 71, 71, 71, 70 as 1, 2, 2, 2, 5', () => {
    expect(competitionRanks([72, 71, 71, 71, 70])).toEqual([1, 2, 2, 2, 5]);
    expect(competitionRanks([70, 71, 72, 71, 71])).toEqual([5, 2, 1, 2, 2]);
  });

  it('gives each total one more than the number strictly above it, whatever the order', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 50 }), (totals) => {
        const ranks = competitionRanks(totals);
        totals.forEach((_, i) => expect(ranks[i]).toBe(referenceRank(totals, i)));
      }),
    );
  });

  it('bonus points never lower the rank of the one who gets them, nor raise anyone else', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 6000, max: 6005 }), { minLength: 1, maxLength: 30 }),
        fc.nat(),
        fc.integer({ min: 1, max: 500 }),
        (totals, pick, bonus) => {
          const i = pick % totals.length;
          const before = competitionRanks(totals);
          const after = competitionRanks(totals.map((t, k) => (k === i ? t + bonus : t)));
          expect(after[i]).toBeLessThanOrEqual(before[i]!);
          totals.forEach((_, k) => {
            if (k !== i) expect(after[k]).toBeGreaterThanOrEqual(before[k]!);
          });
        },
      ),
    );
  });
});

describe('interview list', () => {
  it('takes everyone tied at the cut-off', () => {
    // Two posts at 1:2 → 4 places; the 4th place is a three-way tie at 71: all three enter.
    const totals = [7300, 7200, 7100, 7100, 7100, 7000];
    const r = rankPosition(
      totals.map((total) => ({ total, qualified: true })),
      interviewNeed(2, 2),
    );
    expect(r.cutOff).toBe(7100);
    expect(r.entries.map((e) => e.inList)).toEqual([true, true, true, true, true, false]);
    expect(r.entries.map((e) => e.rank)).toEqual([1, 2, 3, 3, 3, 6]);
    expect(r.short).toBe(false);
  });

  it('agrees with the rule in words for any position', () => {
    fc.assert(
      fc.property(positionArb, fc.integer({ min: 0, max: 12 }), (entries, need) => {
        const r = rankPosition(entries, need);
        const qualifiedTotals = entries.filter((e) => e.qualified && e.total !== null).map((e) => e.total!);
        entries.forEach((e, i) => {
          const out = r.entries[i]!;
          if (e.total === null) {
            // Absent or void: never ranked, never listed.
            expect(out).toEqual({ rank: null, inList: false });
            return;
          }
          const totals = entries.filter((x) => x.total !== null).map((x) => x.total!);
          expect(out.rank).toBe(1 + totals.filter((t) => t > e.total!).length);
          // In the list iff qualified and fewer than `need` qualified people are strictly above.
          const above = qualifiedTotals.filter((t) => t > e.total!).length;
          expect(out.inList).toBe(e.qualified && need > 0 && above < need);
        });
        expect(r.short).toBe(qualifiedTotals.length < need);
        expect(r.inList).toBe(r.entries.filter((e) => e.inList).length);
      }),
    );
  });

  it('fills the places when enough qualify, counting ties beyond them, never leaving out someone above a listed one', () => {
    fc.assert(
      fc.property(positionArb, fc.integer({ min: 1, max: 12 }), (entries, need) => {
        const r = rankPosition(entries, need);
        const qualified = entries.map((e, i) => ({ e, i })).filter((x) => x.e.qualified && x.e.total !== null);
        expect(r.inList).toBeGreaterThanOrEqual(Math.min(need, qualified.length));
        const listed = qualified.filter((x) => r.entries[x.i]!.inList).map((x) => x.e.total!);
        const left = qualified.filter((x) => !r.entries[x.i]!.inList).map((x) => x.e.total!);
        if (listed.length > 0 && left.length > 0) expect(Math.max(...left)).toBeLessThan(Math.min(...listed));
        // More than `need` only through a tie at the cut-off.
        if (r.inList > need) expect(listed.filter((t) => t === r.cutOff).length).toBeGreaterThan(1);
      }),
    );
  });

  it('with fewer qualified than places, lists all of them and flags the position', () => {
    fc.assert(
      fc.property(fc.array(entryArb, { maxLength: 8 }), (entries) => {
        const qualified = entries.filter((e) => e.qualified && e.total !== null).length;
        const r = rankPosition(entries, qualified + 1);
        expect(r.short).toBe(true);
        expect(r.inList).toBe(qualified);
      }),
    );
  });

  it('never lists someone below the pass line, even with a high total', () => {
    const entries: RankEntry[] = [
      { total: 9000, qualified: false },
      { total: 7000, qualified: true },
    ];
    const r = rankPosition(entries, 3);
    expect(r.entries.map((e) => e.inList)).toEqual([false, true]);
    expect(r.entries.map((e) => e.rank)).toEqual([1, 2]);
  });

  it('takes headcount × ratio places, a fraction rounded up', () => {
    expect(interviewNeed(1, 3)).toBe(3);
    expect(interviewNeed(3, 2.5)).toBe(8);
    expect(interviewNeed(4, 2.5)).toBe(10);
    expect(interviewNeed(7, 1.2)).toBe(9);
  });

  it('reads the ratio from a table by headcount', () => {
    const table = [
      { maxHeadcount: 5, ratio: 3 },
      { maxHeadcount: null, ratio: 2 },
      { maxHeadcount: 10, ratio: 2.5 },
    ];
    expect(ratioFor(1, null, table)).toBe(3);
    expect(ratioFor(5, null, table)).toBe(3);
    expect(ratioFor(6, null, table)).toBe(2.5);
    expect(ratioFor(10, null, table)).toBe(2.5);
    expect(ratioFor(11, null, table)).toBe(2);
    expect(ratioFor(11, 3, null)).toBe(3);
  });
});

describe('masked names', () => {
  it('keeps the first and last character of three or more, the first of two', () => {
    expect(maskName('张三')).toBe('张*');
    expect(maskName('张小三')).toBe('张*三');
    expect(maskName('欧阳小明')).toBe('欧**明');
    expect(maskName('李')).toBe('李');
  });

  it('never shows more than two characters of a name, and keeps its length', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('张', '王', '李', '欧', '阳', '明', '𠀋'), minLength: 2, maxLength: 8 }), (name) => {
        const masked = Array.from(maskName(name));
        expect(masked).toHaveLength(Array.from(name).length);
        expect(masked.filter((c) => c !== '*').length).toBeLessThanOrEqual(2);
      }),
    );
  });
});

describe('score rules', () => {
  const base = { examId: 1, subjects: [{ subjectId: 1, fullMarks: 100, weight: 1 }], passLine: 60 };

  it('asks for a ratio or a table, one of the two', () => {
    expect(saveScoreRulesSchema.safeParse(base).success).toBe(false);
    expect(saveScoreRulesSchema.safeParse({ ...base, interviewRatio: 3 }).success).toBe(true);
    const both = saveScoreRulesSchema.safeParse({ ...base, interviewRatio: 3, interviewRatioTable: [{ maxHeadcount: null, ratio: 2 }] });
    expect(both.success).toBe(false);
    expect(both.error?.issues[0]?.message).toContain('二选一');
  });

  it('refuses a table without a last open row and marks with three decimals', () => {
    expect(saveScoreRulesSchema.safeParse({ ...base, interviewRatioTable: [{ maxHeadcount: 5, ratio: 3 }] }).success).toBe(false);
    const r = saveScoreRulesSchema.safeParse({ ...base, passLine: 60.125, interviewRatio: 3 });
    expect(r.error?.issues[0]?.message).toBe('合格分数线最多保留两位小数');
  });
});
