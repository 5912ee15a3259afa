import { AUDIT_ACTIONS, auditActionLabel } from '@zhikaoyun/shared';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(__dirname, '../src');

function sources(dir: string): { file: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith('.ts') ? [{ file: path.relative(SRC, p), text: readFileSync(p, 'utf8') }] : [];
  });
}

/** The arguments of the call opening at `start` (just after its parenthesis), split at top-level commas. */
function argumentsAt(text: string, start: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let current = '';
  for (let i = start; i < text.length; i += 1) {
    const c = text[i]!;
    if (quote) {
      if (c === quote && text[i - 1] !== '\\') quote = null;
      current += c;
      continue;
    }
    if (c === "'" || c === '`' || c === '"') quote = c;
    else if ('([{'.includes(c)) depth += 1;
    else if (')]}'.includes(c)) {
      if (depth === 0) break;
      depth -= 1;
    } else if (c === ',' && depth === 0) {
      args.push(current.trim());
      current = '';
      continue;
    }
    current += c;
  }
  if (current.trim()) args.push(current.trim());
  return args;
}

const literals = (expr: string) => [...expr.matchAll(/'([^']*)'/g)].map((m) => m[1]!);

describe('the audit vocabulary', () => {
  const files = sources(SRC);

  it('records only actions of the shared table, from every call site', () => {
    const known = new Set(AUDIT_ACTIONS);
    const unknown: string[] = [];
    let sites = 0;
    for (const { file, text } of files) {
      for (const m of text.matchAll(/audit\.record\(/g)) {
        sites += 1;
        const action = argumentsAt(text, m.index + m[0].length)[1] ?? '';
        for (const l of literals(action)) if (!known.has(l)) unknown.push(`${file}: ${l}`);
      }
      for (const m of text.matchAll(/\.recordMany\(/g)) {
        const entries = argumentsAt(text, m.index + m[0].length)[1] ?? '';
        for (const a of entries.matchAll(/action:\s*('[^']*')/g))
          for (const l of literals(a[1]!)) if (!known.has(l)) unknown.push(`${file}: ${l}`);
      }
    }
    expect(sites).toBeGreaterThan(50);
    expect(unknown).toEqual([]);
  });

  it('has one writer of the log: the audit repository', () => {
    const writers = files.filter(({ text }) => /insertInto\(\s*'audit_log'\s*\)/.test(text)).map(({ file }) => file);
    expect(writers).toEqual([path.join('modules', 'platform', 'audit', 'repository.ts')]);
  });

  it('labels every action once and translates the keys written before the table', () => {
    expect(new Set(AUDIT_ACTIONS).size).toBe(AUDIT_ACTIONS.length);
    for (const a of AUDIT_ACTIONS) expect(a).toMatch(/^[\u4e00-\u9fa5（）]/);
    expect(auditActionLabel('candidate.deleteAccount')).toBe('注销账号');
    expect(auditActionLabel('appeal.reject')).toBe('驳回身份申诉');
    expect(auditActionLabel('发布考试')).toBe('发布考试');
  });
});
