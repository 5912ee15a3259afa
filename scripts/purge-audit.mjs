// `npm run purge-audit -- --before YYYY-MM-DD [--yes]`: removes audit records older than the date
// (at least 180 days ago) from every chain, leaving an audited anchor record (docs/security.md).
import { runServerCli } from './server-cli.mjs';

process.exit(await runServerCli('purge-audit', 'apps/server/src/purge-audit-cli.ts'));
