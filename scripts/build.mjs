// Builds what is stale: the web app (Vite) and the server bundle (esbuild).
// `node scripts/build.mjs [--server] [--web] [--force]`
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureDependencies, mtime, mustRun, newestMtime, root } from './lib.mjs';

const SHARED = ['packages/shared/src', 'packages/shared/package.json', 'package-lock.json'];

export async function buildServer({ force = false } = {}) {
  const out = 'apps/server/dist/server.js';
  const inputs = newestMtime(['apps/server/src', 'apps/server/package.json', ...SHARED, 'scripts/build.mjs']);
  if (!force && mtime(out) > inputs) return false;
  console.log('› building server…');
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [path.join(root, 'apps/server/src/server.ts')],
    outfile: path.join(root, out),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    sourcemap: true,
    logLevel: 'warning',
    // Our own workspace packages are bundled (they are TypeScript); everything else stays in node_modules.
    plugins: [
      {
        name: 'externals',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@zhikaoyun/') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  writeFileSync(path.join(root, 'apps/server/dist/package.json'), '{ "type": "module" }\n');
  return true;
}

export function buildWeb({ force = false } = {}) {
  const stamp = 'apps/web/dist/.built';
  const inputs = newestMtime([
    'apps/web/src',
    'apps/web/index.html',
    'apps/web/admin.html',
    'apps/web/public',
    'apps/web/vite.config.ts',
    'apps/web/package.json',
    ...SHARED,
  ]);
  if (!force && mtime(stamp) > inputs) return false;
  console.log('› building web app…');
  mustRun('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: path.join(root, 'apps/web') });
  writeFileSync(path.join(root, stamp), new Date().toISOString());
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = new Set(process.argv.slice(2));
  const force = args.has('--force');
  const only = args.has('--server') ? 'server' : args.has('--web') ? 'web' : null;
  ensureDependencies();
  if (only !== 'server') buildWeb({ force });
  if (only !== 'web') await buildServer({ force });
}
