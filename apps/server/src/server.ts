import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase } from './db/database';
import { CryptoSuiteMismatch } from './db/crypto-suite';
import { prepareDatabase } from './prepare-database';
import { firstStart } from './seed/first-start';
import { createDataCipher } from './lib/crypto';
import type { KeyRing } from './lib/crypto-suite';
import { resolveDataKey } from './lib/data-key';
import { resolveSandboxKeys } from './modules/confirmation/payments/sandbox-keys';

/** The built web app sits beside the built server in the repository: apps/web/dist. */
function defaultWebDist(): string | null {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidate = path.resolve(here, '../../web/dist');
  return existsSync(path.join(candidate, 'index.html')) ? candidate : null;
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(2);
  }
  if (config.webDist === null) config = { ...config, webDist: defaultWebDist() };

  const db = openDatabase(config.database);
  const dataKey = resolveDataKey(config);
  const keys: KeyRing = { suite: config.cryptoSuite, current: dataKey, previous: config.previousDataKeys };
  try {
    const { sealed } = await prepareDatabase(db, keys);
    for (const s of sealed) console.log(`audit chain ${s.chain}: ${s.sealed} record(s) written before the chain sealed`);
  } catch (err) {
    if (!(err instanceof CryptoSuiteMismatch)) throw err;
    console.error(err.message);
    await db.destroy();
    process.exit(2);
  }
  // An empty database: the platform operator, and outside production (unless SEED_DEMO=off) the
  // demo office, which also shows the later stages (approved candidates who can pay).
  const printed = await firstStart(db, {
    demo: config.seedDemo,
    demoAdminPassword: config.seedAdminPassword,
    ...(config.seedConfirmationDemo
      ? { confirmationDemo: { cipher: createDataCipher(dataKey, config.previousDataKeys, config.cryptoSuite) } }
      : {}),
    platformPassword: config.platformAdminPassword,
  });
  // Printed once, on the run that created the account; it is stored only as an argon2id hash.
  if (printed.length > 0) console.log(`\n${printed.map((line) => `  ${line}`).join('\n')}\n`);

  const sandboxKeys =
    config.payments.provider === 'sandbox' || config.env !== 'production' ? resolveSandboxKeys(config.database) : undefined;
  const app = await buildApp(config, { db, dataKey, ...(sandboxKeys ? { sandboxKeys } : {}) });
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Within SHUTDOWN_SECONDS (10) whatever is running (security review 3, N1: a stuck sheet held
    // the old close); the cut-off comes 2 s before it, for the exit itself. Nothing is half-written
    // either way: every write is one transaction, rolled back unless committed.
    const cutOffMs = Math.max(1_000, config.ops.shutdownMs - 2_000);
    const force = setTimeout(() => {
      app.log.warn({ signal, cutOffMs }, 'shutdown: requests still running at the cut-off, exiting');
      process.exit(1);
    }, cutOffMs);
    force.unref();
    // 1. No new work (decision 041): every request from now on is answered 503 + Retry-After,
    //    health included, so the balancer and the site's waiting room send it elsewhere; the
    //    heavy workers end at once (their requests answered 「服务器正在重启…」).
    app.drain.start();
    stopCleanly(cutOffMs)
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      });
  };
  const stopCleanly = async (cutOffMs: number) => {
    // 2. The SMS leases go back: untried messages at once, sends with the provider when answered
    //    (or their leases ended at half the budget), so another process sends them now.
    const handedBack = config.sms.worker
      ? app.services.smsWorker.handBack(cutOffMs / 2).then((ended) => {
          if (ended > 0) app.log.warn({ sms: { ended } }, 'shutdown: SMS sends unanswered, their leases ended (in doubt)');
        })
      : Promise.resolve();
    // 3. The requests in flight finish; the port stays open (answering 503) at least drainMs.
    const linger = new Promise((resolve) => setTimeout(resolve, Math.min(config.ops.drainMs, cutOffMs / 2)));
    await Promise.all([app.drain.idle(), linger, handedBack]);
    // 4. The port closes, then the database.
    await app.close();
    await db.destroy();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  // Every process may deliver: workers lease rows, so two never send the same message.
  if (config.sms.worker) app.services.smsWorker.start();
  const shown = config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
  console.log(
    `zhikaoyun serving http://${shown}:${config.port} (${config.database.kind}${config.webDist ? '' : ', API only: web app not built'})`,
  );
  // A parent that started us with an IPC channel (tests, the dev loop) learns we are ready
  // from this message instead of polling.
  process.send?.({ type: 'listening', port: config.port });
}

main().catch((err: unknown) => {
  console.error('start-up failed:', err instanceof Error ? err.message : err);
  process.exit(1);
});
