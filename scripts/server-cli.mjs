// The server's commands (`npm run rotate-data-key`, `verify-audit`, `purge-audit`): each is an
// entry of the server's own sources, bundled the way the server is when stale, then run with the
// arguments given after `--`.
import path from 'node:path';
import { serverBuildOptions } from './build.mjs';
import { ensureDependencies, mtime, newestMtime, root, run } from './lib.mjs';

export async function runServerCli(name, entry) {
  ensureDependencies();
  const out = `apps/server/dist/${name}.mjs`;
  if (mtime(out) < newestMtime(['apps/server/src', 'packages/shared/src', 'scripts/server-cli.mjs', `scripts/${name}.mjs`])) {
    const esbuild = await import('esbuild');
    // The server's bundle options (externals, target), with this command as the entry and no source map.
    await esbuild.build({
      ...serverBuildOptions(),
      entryPoints: [path.join(root, entry)],
      outfile: path.join(root, out),
      sourcemap: false,
    });
  }
  return run(process.execPath, [path.join(root, out), ...process.argv.slice(2)]);
}
