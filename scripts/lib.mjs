// Helpers for start/test/build. Plain Node only: these run before dependencies are installed.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts });
  if (res.error) throw res.error;
  return res.status ?? 1;
}

export function mustRun(cmd, args, opts = {}) {
  const code = run(cmd, args, opts);
  if (code !== 0) {
    console.error(`\n✖ ${cmd} ${args.join(' ')} failed (exit ${code})`);
    process.exit(code);
  }
}

/** Newest modification time of any file under the given paths (folders walked, node_modules and dist skipped). */
export function newestMtime(paths) {
  let newest = 0;
  const walk = (p) => {
    if (!existsSync(p)) return;
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const name of readdirSync(p)) {
        if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
        walk(path.join(p, name));
      }
    } else if (st.mtimeMs > newest) {
      newest = st.mtimeMs;
    }
  };
  for (const p of paths) walk(path.resolve(root, p));
  return newest;
}

export function mtime(file) {
  const p = path.resolve(root, file);
  return existsSync(p) ? statSync(p).mtimeMs : 0;
}

/**
 * Installs dependencies when node_modules is missing or older than the lock file, so that
 * `npm start` and `npm test` work as the first command in a fresh clone.
 */
export function ensureDependencies() {
  const marker = path.join(root, 'node_modules/.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  const stale = !existsSync(marker) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs + 1000);
  if (!stale) return;
  console.log('› installing dependencies (npm ci)…');
  mustRun('npm', [existsSync(lock) ? 'ci' : 'install', '--no-audit', '--no-fund']);
}
