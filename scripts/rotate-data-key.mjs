// `npm run rotate-data-key`: re-encrypts every ID number and hint answer with DATA_KEY and
// recomputes the blind indexes, reading old rows with DATA_KEY_PREVIOUS (docs/security.md).
// The work is done by the server's own modules, bundled here the way the server is.
import path from 'node:path';
import { serverBuildOptions } from './build.mjs';
import { ensureDependencies, mtime, newestMtime, root, run } from './lib.mjs';

ensureDependencies();
const out = 'apps/server/dist/rotate-data-key.mjs';
if (mtime(out) < newestMtime(['apps/server/src', 'packages/shared/src', 'scripts/rotate-data-key.mjs'])) {
  const esbuild = await import('esbuild');
  // The server's bundle options (externals, target), with this CLI as the entry and no source map.
  await esbuild.build({
    ...serverBuildOptions(),
    entryPoints: [path.join(root, 'apps/server/src/rotate-data-key-cli.ts')],
    outfile: path.join(root, out),
    sourcemap: false,
  });
}
process.exit(run(process.execPath, [path.join(root, out)]));
