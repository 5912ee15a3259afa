import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { birthdayFromIdno, idnoProblem, isValidIdno, sexFromIdno } from '../src/access/idno';

/**
 * An independent reading of GB 11643-1999, written from the standard and not from our code:
 * weights are 2^(17-i) mod 11, the check value is (12 - sum mod 11) mod 11 with 10 written X,
 * and dates are checked with a days-in-month table.
 */
function referenceCheck(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * (2 ** (17 - i) % 11);
  const value = (12 - (sum % 11)) % 11;
  return value === 10 ? 'X' : String(value);
}

function referenceDateOk(y: number, m: number, d: number): boolean {
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return m >= 1 && m <= 12 && d >= 1 && d <= days[m - 1]!;
}

function referenceValid(id: string, today: string): boolean {
  if (!/^\d{17}[\dXx]$/.test(id)) return false;
  const y = Number(id.slice(6, 10));
  const m = Number(id.slice(10, 12));
  const d = Number(id.slice(12, 14));
  if (!referenceDateOk(y, m, d) || y < 1900) return false;
  if (`${id.slice(6, 10)}-${id.slice(10, 12)}-${id.slice(12, 14)}` > today) return false;
  return referenceCheck(id.slice(0, 17)) === id[17]!.toUpperCase();
}

const TODAY = '2026-11-22';
const digits = (n: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: n, maxLength: n });
const date = fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date(`${TODAY}T00:00:00Z`), noInvalidDate: true });

/** Real ID numbers: any region, a real date up to today, any order code, the right check. */
const realIdno = fc.tuple(digits(6), date, digits(3)).map(([region, d, order]) => {
  const first17 = `${region}${d.toISOString().slice(0, 10).replace(/-/g, '')}${order}`;
  return first17 + referenceCheck(first17);
});

describe('ID numbers against an independent implementation (fast-check)', () => {
  it('accepts every real ID number, in either case of X', () => {
    fc.assert(
      fc.property(realIdno, fc.boolean(), (id, lower) => {
        const input = lower ? id.toLowerCase() : id;
        expect(isValidIdno(input, TODAY)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees with the reference on arbitrary 18-character strings', () => {
    const near = fc.oneof(
      realIdno.chain((id) =>
        fc.nat(17).chain((pos) => fc.constantFrom(...'0123456789Xx').map((c) => id.slice(0, pos) + c + id.slice(pos + 1))),
      ),
      fc.string({ unit: fc.constantFrom(...'0123456789Xx'), minLength: 18, maxLength: 18 }),
      fc.tuple(digits(6), digits(8), digits(3)).map(([a, b, c]) => a + b + c + referenceCheck(a + b + c)),
    );
    fc.assert(
      fc.property(near, (id) => {
        expect(isValidIdno(id, TODAY)).toBe(referenceValid(id, TODAY));
      }),
      { numRuns: 5000 },
    );
  });

  it('refuses any change of a single digit of a real number (the check catches it)', () => {
    fc.assert(
      fc.property(realIdno, fc.nat(16), fc.nat(9), (id, pos, digit) => {
        fc.pre(id[pos] !== String(digit));
        const changed = id.slice(0, pos) + String(digit) + id.slice(pos + 1);
        expect(isValidIdno(changed, TODAY)).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses wrong lengths and foreign characters', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (s) => {
        fc.pre(!/^\d{17}[\dXx]$/.test(s.trim()));
        expect(idnoProblem(s, TODAY)).toBe('format');
      }),
      { numRuns: 2000 },
    );
  });

  it('derives birthday (digits 7-14) and sex (digit 17) as the spec says', () => {
    fc.assert(
      fc.property(realIdno, (id) => {
        expect(birthdayFromIdno(id)).toBe(`${id.slice(6, 10)}-${id.slice(10, 12)}-${id.slice(12, 14)}`);
        expect(sexFromIdno(id)).toBe(Number(id[16]) % 2 === 0 ? '女' : '男');
      }),
      { numRuns: 2000 },
    );
  });
});
