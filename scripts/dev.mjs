// `npm run dev`: the development loop. The server is rebuilt by esbuild on every change under
// apps/server/src or packages/shared and restarted (on the SQLite database of `npm start`);
// Vite serves the web app with hot reload on http://127.0.0.1:5173 (the console at /admin) and
// proxies /api to the server. Ctrl-C stops both.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { markServerBundleAsModule, serverBuildOptions, SERVER_OUT, workerBuildOptions } from './build.mjs';
import { ensureDependencies, root } from './lib.mjs';

ensureDependencies();
const apiPort = process.env.PORT ?? '8080';
const webPort = process.env.WEB_PORT ?? '5173';
let server = null;
let stopping = false;

function startServer() {
  server = spawn(process.execPath, ['--enable-source-maps', path.join(root, SERVER_OUT)], {
    stdio: 'inherit',
    env: { ...process.env, PORT: apiPort, NODE_ENV: process.env.NODE_ENV ?? 'development' },
  });
  server.once('exit', () => {
    server = null;
  });
}

async function restartServer() {
  if (server) {
    const old = server;
    const exited = new Promise((resolve) => old.once('exit', resolve));
    old.kill('SIGTERM');
    await exited;
  }
  if (!stopping) startServer();
}

const esbuild = await import('esbuild');
const options = serverBuildOptions();
const context = await esbuild.context({
  ...options,
  plugins: [
    ...options.plugins,
    {
      name: 'restart-on-build',
      setup(b) {
        b.onEnd((result) => {
          if (result.errors.length > 0) {
            console.error('› server build failed; keeping the last good server running');
            return;
          }
          markServerBundleAsModule();
          console.log('› server rebuilt, restarting…');
          void restartServer();
        });
      },
    },
  ],
});
await context.watch();
// The worker scripts (started afresh for each job, so a rebuild needs no restart).
const workers = await esbuild.context(workerBuildOptions());
await workers.watch();

const web = spawn('npx', ['vite', '--host', '127.0.0.1', '--port', webPort, '--strictPort'], {
  cwd: path.join(root, 'apps/web'),
  stdio: 'inherit',
  env: { ...process.env, ZK_DEV_API: `http://127.0.0.1:${apiPort}` },
});
console.log(`› dev: site http://127.0.0.1:${webPort}/, console http://127.0.0.1:${webPort}/admin, API on :${apiPort}`);

async function stop() {
  if (stopping) return;
  stopping = true;
  await context.dispose();
  await workers.dispose();
  web.kill('SIGTERM');
  server?.kill('SIGTERM');
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
web.once('exit', () => void stop());
