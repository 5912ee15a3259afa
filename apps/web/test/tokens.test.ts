import { readFileSync } from 'node:fs';
import { THEME } from '@zhikaoyun/shared';
import { describe, expect, it } from 'vitest';

// The theme lives twice: THEME in packages/shared (antd's theme, the browser's chrome colour) and
// the CSS variables of tokens.css (every stylesheet). These checks keep the two one theme.

const read = (file: string) => readFileSync(new URL(file, import.meta.url), 'utf8');
const tokensCss = read('../src/styles/tokens.css');
const STYLESHEETS = ['../src/styles/global.css', '../src/styles/admin.css', '../src/styles/fields.css'];

/** The `--zk-*` custom properties of tokens.css's `:root`, by name. */
function tokens(css: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of css.matchAll(/(--zk-[\w-]+)\s*:\s*([^;]+);/g)) found.set(m[1]!, m[2]!.trim());
  return found;
}

/** Which variable carries each THEME constant, and how the constant is written in CSS. */
const VARIABLE_OF: Record<keyof typeof THEME, string> = {
  colorPrimary: '--zk-primary',
  colorPrimaryHover: '--zk-primary-hover',
  colorPrimaryActive: '--zk-primary-active',
  colorSupplementary: '--zk-supplementary',
  borderRadius: '--zk-radius',
  borderRadiusLarge: '--zk-radius-lg',
};
const asCss = (value: string | number) => (typeof value === 'number' ? `${value}px` : value.toLowerCase());

describe('theme tokens', () => {
  const vars = tokens(tokensCss);

  it('tokens.css holds every THEME constant with the same value', () => {
    for (const [key, variable] of Object.entries(VARIABLE_OF) as [keyof typeof THEME, string][]) {
      expect(vars.get(variable)?.toLowerCase(), `${variable} (THEME.${key})`).toBe(asCss(THEME[key]));
    }
  });

  it('no stylesheet writes a token colour out instead of reading its variable', () => {
    const colours = [...vars.entries()].filter(([, value]) => /^#[0-9a-f]{3,8}$/i.test(value));
    expect(colours.map(([variable]) => variable)).toEqual(
      expect.arrayContaining(['--zk-primary', '--zk-primary-hover', '--zk-supplementary', '--zk-text-2', '--zk-border']),
    );
    for (const file of STYLESHEETS) {
      const css = read(file).toLowerCase();
      for (const [variable, value] of colours) {
        // A longer hex beginning with the same digits is another colour.
        expect(new RegExp(`${value.toLowerCase()}(?![0-9a-f])`).test(css), `${file} writes ${value}; use var(${variable})`).toBe(false);
      }
    }
  });

  it('the browser chrome colour of both pages is THEME.colorPrimary', () => {
    for (const page of ['../index.html', '../admin.html']) {
      const meta = /<meta name="theme-color" content="([^"]+)"/.exec(read(page));
      if (meta) expect(meta[1]?.toLowerCase(), page).toBe(THEME.colorPrimary.toLowerCase());
    }
    expect(/<meta name="theme-color"/.test(read('../index.html'))).toBe(true);
  });
});
