// `npm run rotate-data-key`: re-encrypts every ID number and hint answer with DATA_KEY and
// recomputes the blind indexes, reading old rows with DATA_KEY_PREVIOUS (docs/security.md).
// The work is done by the server's own modules, bundled here the way the server is.
import path from 'node:path';
import { ensureDependencies, mtime, newestMtime, root, run } from './lib.mjs';

ensureDependencies();
const out = 'apps/server/dist/rotate-data-key.mjs';
if (mtime(out) < newestMtime(['apps/server/src', 'packages/shared/src', 'scripts/rotate-data-key.mjs'])) {
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [path.join(root, 'apps/server/src/rotate-data-key-cli.ts')],
    outfile: path.join(root, out),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    logLevel: 'warning',
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
}
process.exit(run(process.execPath, [path.join(root, out)]));
