import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * No source file over 400 lines of logic (the server's, the web app's and the shared package's):
 * past that a file has more than one job, and is split into files named for each. A line of
 * logic is one that is not blank and, after its indent, starts with none of `//`, `/*` and `*`
 * (a block comment's inner lines and its end).
 */

const MAX_LOGIC_LINES = 400;
const REPO = path.resolve(import.meta.dirname, '../../..');
const ROOTS = ['apps/server/src', 'apps/web/src', 'packages/shared/src'];

/** Data, not logic: files that grow only with what they list, each with why. */
const EXEMPT: Record<string, string> = {
  'apps/server/src/db/schema.ts': "the database's tables for Kysely, one interface a table and one line a column",
  'packages/shared/src/access/common-password-words.ts': 'the 10,000 common passwords the staff password rule refuses',
};

/** Tests and migrations are not held to it (a migration is written once and never split). */
const skipped = (rel: string) => /\.(test|spec)\.tsx?$/.test(rel) || rel.split('/').includes('migrations');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sources(p);
    return /\.tsx?$/.test(e.name) ? [path.relative(REPO, p).split(path.sep).join('/')] : [];
  });
}

function logicLines(text: string): number {
  return text.split('\n').filter((line) => {
    const t = line.trim();
    return t !== '' && !t.startsWith('//') && !t.startsWith('/*') && !t.startsWith('*');
  }).length;
}

describe('file size', () => {
  it('counts logic lines without blanks and comments', () => {
    expect(logicLines('const a = 1;\n\n// why\n/**\n * doc\n */\n  /* inline */\nfunction f() {}\n')).toBe(2);
  });

  it(`keeps every source file at ${MAX_LOGIC_LINES} lines of logic or fewer`, () => {
    const files = ROOTS.flatMap((root) => sources(path.join(REPO, root))).filter((rel) => !skipped(rel) && !(rel in EXEMPT));
    // The walk found each root's files (a moved folder would otherwise pass by checking nothing).
    for (const root of ROOTS) expect(files.some((f) => f.startsWith(`${root}/`))).toBe(true);
    const over = files
      .map((file) => ({ file, lines: logicLines(readFileSync(path.join(REPO, file), 'utf8')) }))
      .filter((f) => f.lines > MAX_LOGIC_LINES)
      .map((f) => `${f.file}: ${f.lines} lines of logic (split it into files with one job each)`);
    expect(over).toEqual([]);
  });

  it('exempts only files that exist', () => {
    for (const file of Object.keys(EXEMPT)) expect(existsSync(path.join(REPO, file)), file).toBe(true);
  });
});
