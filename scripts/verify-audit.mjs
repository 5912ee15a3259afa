// `npm run verify-audit`: checks every audit chain (each office's and the platform's) on the
// database of DATABASE_URL and exits non-zero naming the first record that was changed, removed
// or inserted (docs/security.md, 安全审计).
import { runServerCli } from './server-cli.mjs';

process.exit(await runServerCli('verify-audit', 'apps/server/src/verify-audit-cli.ts'));
