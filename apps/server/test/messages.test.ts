import { NOT_FOUND_TEXT } from '@zhikaoyun/shared';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError, notFound } from '../src/lib/app-error';

const SRC = path.resolve(__dirname, '../src');

function sources(dir: string): { file: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith('.ts') ? [{ file: path.relative(SRC, p), text: readFileSync(p, 'utf8') }] : [];
  });
}

/** Lines of the server's code outside comments. */
function codeLines(text: string): string[] {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .filter((l) => !l.trim().startsWith('//'));
}

describe('the messages of missing things', () => {
  const files = sources(SRC);

  it('come from the catalogue: no NotFound answer with its own words, no 不存在 text in the server', () => {
    const inline: string[] = [];
    for (const { file, text } of files)
      for (const line of codeLines(text))
        if (/AppError\(ErrorCode\.NotFound,\s*['`]/.test(line) || /['`][^'`]*不存在[^'`]*['`]/.test(line))
          inline.push(`${file}: ${line.trim()}`);
    expect(inline).toEqual([]);
  });

  it('has one text per thing, each telling the user what is missing', () => {
    const texts = Object.values(NOT_FOUND_TEXT);
    expect(new Set(texts).size).toBe(texts.length);
    for (const t of texts) expect(t).toMatch(/不存在|尚未|没有|未查到|未找到/);
    const e = notFound('exam');
    expect(e).toBeInstanceOf(AppError);
    expect(e.message).toBe('该考试不存在或已删除，请刷新后再试');
  });
});
