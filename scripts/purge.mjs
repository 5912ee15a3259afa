// `npm run purge [-- --as-of YYYY-MM-DD | --dry-run]`: retention's purge (docs/security.md):
// with --as-of or --dry-run it prints what would be anonymised and deleted, per office and exam,
// and changes nothing; without them it does today's work.
import { runServerCli } from './server-cli.mjs';

process.exit(await runServerCli('purge', 'apps/server/src/purge-cli.ts'));
