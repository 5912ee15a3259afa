// The log scan after the whole suite: every server the tests started (vitest's test apps, the
// Playwright web server) appended its log lines under one folder. Nothing personal or secret may
// be in them: a full ID number (18 characters that pass GB 11643), a mainland mobile number, a
// password the tests used, or a session token.
// `node scripts/scan-test-logs.mjs [dir]` prints the findings and exits 1 when there are any.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { root } from './lib.mjs';

export const TEST_LOG_DIR = process.env.ZK_TEST_LOG_DIR ?? path.join(tmpdir(), 'zk-test-logs');

const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const CHECK = '10X98765432';

/** GB 11643: a real birth date and the MOD 11-2 check character. */
export function isIdno(s) {
  if (!/^\d{17}[\dX]$/i.test(s)) return false;
  const y = Number(s.slice(6, 10));
  const m = Number(s.slice(10, 12));
  const d = Number(s.slice(12, 14));
  const date = new Date(Date.UTC(y, m - 1, d));
  if (y < 1900 || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return false;
  const sum = WEIGHTS.reduce((acc, w, i) => acc + w * Number(s[i]), 0);
  return CHECK[sum % 11] === s[17].toUpperCase();
}

/** Passwords written in the test sources (at least 10 characters with a letter: shorter ones are
 * refused by the rules and could match by chance). */
export function knownTestPasswords() {
  const found = new Set();
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const p = path.join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(ts|mjs)$/.test(name)) {
        const text = readFileSync(p, 'utf8');
        for (const m of text.matchAll(/[Pp]assword['"]?\s*[:=,]\s*['"`]([^'"`\n]{10,128})['"`]/g)) {
          // A route path beside a password field (`'/api/resetPassword'`), or a route's name in a
          // list after one (`['changePassword', 'confirmTotp']`), is a name, not a secret.
          const name = m[1].startsWith('/') || /^[a-z]+[A-Z][A-Za-z]*$/.test(m[1]);
          if (/[A-Za-z]/.test(m[1]) && !m[1].includes('${') && !name) found.add(m[1]);
        }
        for (const m of text.matchAll(/[A-Z_]*PASSWORD[A-Z_]*\s*[:=]\s*['"`]([^'"`\n]{10,128})['"`]/g)) found.add(m[1]);
      }
    }
  };
  for (const dir of ['apps/server/test', 'e2e', 'playwright.config.ts']) {
    const p = path.join(root, dir);
    if (existsSync(p) && statSync(p).isFile()) {
      for (const m of readFileSync(p, 'utf8').matchAll(/PASSWORD:\s*['"`]([^'"`\n]{10,128})['"`]/g)) found.add(m[1]);
    } else walk(p);
  }
  return [...found];
}

/** Findings in one text: [kind, excerpt] pairs, the excerpt masked so the report leaks nothing. */
export function scanText(text, passwords) {
  const findings = [];
  const mask = (s) => `${s.slice(0, 3)}…${s.slice(-2)}`;
  for (const m of text.matchAll(/(?<![\dA-Za-z.])\d{17}[\dXx](?![\dA-Za-z])/g)) {
    if (isIdno(m[0])) findings.push(['ID number', mask(m[0])]);
  }
  for (const m of text.matchAll(/(?<![\dA-Za-z.])1[3-9]\d{9}(?![\dA-Za-z.])/g)) findings.push(['mobile number', mask(m[0])]);
  for (const p of passwords) if (text.includes(p)) findings.push(['test password', mask(p)]);
  for (const m of text.matchAll(/Bearer\s+([A-Za-z0-9_.~+/-]{16,})/g)) findings.push(['bearer token', mask(m[1])]);
  for (const m of text.matchAll(/"token"\s*:\s*"([A-Za-z0-9_-]{16,})"/g)) findings.push(['session token', mask(m[1])]);
  return findings;
}

export function scanLogDir(dir = TEST_LOG_DIR) {
  if (!existsSync(dir)) return { files: 0, bytes: 0, findings: [] };
  const passwords = knownTestPasswords();
  const findings = [];
  let files = 0;
  let bytes = 0;
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    const text = readFileSync(file, 'utf8');
    files += 1;
    bytes += text.length;
    text.split('\n').forEach((line, i) => {
      for (const [kind, excerpt] of scanText(line, passwords)) findings.push({ file: name, line: i + 1, kind, excerpt });
    });
  }
  return { files, bytes, findings };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2] ?? TEST_LOG_DIR;
  const { files, bytes, findings } = scanLogDir(dir);
  for (const f of findings.slice(0, 50)) console.error(`✖ ${f.kind} in ${f.file}:${f.line} (${f.excerpt})`);
  console.log(`log scan: ${files} file(s), ${Math.round(bytes / 1024)} KiB, ${findings.length} finding(s) in ${dir}`);
  process.exit(findings.length ? 1 : 0);
}
