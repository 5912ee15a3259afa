// `npm run verify-archive -- FILE`: checks an exam archive offline (its manifest's HMAC under the
// data key of the environment, and every file's SHA-256); exits non-zero naming what changed.
import { runServerCli } from './server-cli.mjs';

process.exit(await runServerCli('verify-archive', 'apps/server/src/verify-archive-cli.ts'));
