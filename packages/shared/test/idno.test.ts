import { describe, expect, it } from 'vitest';
import { birthdayFromIdno, idnoCheckChar, idnoProblem, isValidIdno, maskIdno, maskMobile, sexFromIdno } from '../src/access/idno';

describe('ID number (GB 11643-1999)', () => {
  it('computes the MOD 11-2 check character of the standard example', () => {
    // The standard's own example: 11010519491231002X.
    expect(idnoCheckChar('11010519491231002')).toBe('X');
    expect(isValidIdno('11010519491231002X')).toBe(true);
    expect(isValidIdno('11010519491231002x')).toBe(true);
  });

  it('derives birthday from digits 7-14 and sex from digit 17 as the spec says', () => {
    expect(birthdayFromIdno('11010519491231002X')).toBe('1949-12-31');
    expect(sexFromIdno('11010519491231002X')).toBe('女'); // 2 is even
    expect(sexFromIdno('110105194912310010')).toBe('男'); // 1 is odd
  });

  it('names what is wrong with an impossible number', () => {
    expect(idnoProblem('1101051949123100')).toBe('format');
    expect(idnoProblem('11010519491331002X')).toBe('birthday');
    expect(idnoProblem('110105199902290000')).toBe('birthday'); // 1999 was not a leap year
    expect(idnoProblem('110105203001010000', '2026-11-22')).toBe('future');
    expect(idnoProblem('110105194912310021')).toBe('checksum');
  });

  it('masks the birth date and keeps region and the last four', () => {
    expect(maskIdno('11010519491231002X')).toBe('110105********002X');
    expect(maskMobile('13800138000')).toBe('138****8000');
  });
});
