// Builds what is stale: the web app (Vite) and the server bundle (esbuild).
// `node scripts/build.mjs [--server] [--web] [--force]`
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { ensureDependencies, mtime, mustRun, newestMtime, root } from './lib.mjs';

const SHARED = ['packages/shared/src', 'packages/shared/package.json', 'package-lock.json'];

/** How the server is bundled, for `npm run build` and the watching build of `npm run dev`. */
export function serverBuildOptions() {
  return {
    entryPoints: [path.join(root, 'apps/server/src/server.ts')],
    outfile: path.join(root, SERVER_OUT),
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
  };
}

export const SERVER_OUT = 'apps/server/dist/server.js';

/**
 * The worker threads' scripts, bundled beside the server (which starts them by the name
 * `./NAME.js` next to its own file): heavy work runs there, off the event loop.
 */
export const WORKER_ENTRIES = {
  'export-worker': 'apps/server/src/export-worker.ts',
  'heavy-worker': 'apps/server/src/heavy-worker.ts',
};

/** How the worker scripts are bundled: as the server, into its folder. */
export function workerBuildOptions() {
  const { outfile: _outfile, ...options } = serverBuildOptions();
  return {
    ...options,
    entryPoints: Object.fromEntries(Object.entries(WORKER_ENTRIES).map(([name, file]) => [name, path.join(root, file)])),
    outdir: path.join(root, path.dirname(SERVER_OUT)),
  };
}

export async function buildServer({ force = false } = {}) {
  const inputs = newestMtime(['apps/server/src', 'apps/server/package.json', ...SHARED, 'scripts/build.mjs']);
  const outputs = [SERVER_OUT, ...Object.keys(WORKER_ENTRIES).map((name) => path.join(path.dirname(SERVER_OUT), `${name}.js`))];
  if (!force && Math.min(...outputs.map(mtime)) > inputs) return false;
  console.log('› building server…');
  const esbuild = await import('esbuild');
  await Promise.all([esbuild.build(serverBuildOptions()), esbuild.build(workerBuildOptions())]);
  markServerBundleAsModule();
  return true;
}

export function markServerBundleAsModule() {
  writeFileSync(path.join(root, 'apps/server/dist/package.json'), '{ "type": "module" }\n');
}

export function buildWeb({ force = false } = {}) {
  const stamp = 'apps/web/dist/.built';
  const inputs = newestMtime([
    'apps/web/src',
    'apps/web/index.html',
    'apps/web/admin.html',
    'apps/web/platform.html',
    'apps/web/public',
    'apps/web/vite.config.ts',
    'apps/web/package.json',
    ...SHARED,
  ]);
  if (!force && mtime(stamp) > inputs) return false;
  console.log('› building web app…');
  mustRun('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: path.join(root, 'apps/web') });
  // The server render of the public pages (dist/.ssr/entry-server.js), loaded by the server.
  mustRun('npx', ['vite', 'build', '--ssr', 'src/entry-server.tsx', '--logLevel', 'warn'], { cwd: path.join(root, 'apps/web') });
  precompress(path.join(root, 'apps/web/dist'));
  writeFileSync(path.join(root, stamp), new Date().toISOString());
  return true;
}

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;

/**
 * Writes NAME.br (brotli, best) and NAME.gz (gzip -9) beside each text file of the built web app,
 * when smaller, so the server sends them precompressed (apps/server/src/plugins/web.ts,
 * `preCompressed`): smaller transfers at no CPU cost per request. Files under 1 KiB are left alone.
 */
export function precompress(dir) {
  for (const name of readdirSync(dir, { recursive: true })) {
    const file = path.join(dir, name);
    // .vite/ holds the build's manifests, read by scripts only and never served.
    if (name.startsWith('.') || !COMPRESSIBLE.test(file) || !statSync(file).isFile()) continue;
    const body = readFileSync(file);
    if (body.length < 1024) continue;
    const br = brotliCompressSync(body, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length },
    });
    const gz = gzipSync(body, { level: 9 });
    if (br.length < body.length) writeFileSync(`${file}.br`, br);
    if (gz.length < body.length) writeFileSync(`${file}.gz`, gz);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = new Set(process.argv.slice(2));
  const force = args.has('--force');
  const only = args.has('--server') ? 'server' : args.has('--web') ? 'web' : null;
  ensureDependencies();
  if (only !== 'server') buildWeb({ force });
  if (only !== 'web') await buildServer({ force });
}
