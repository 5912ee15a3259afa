// `npm run restore`: see apps/server/src/restore-cli.ts and docs/deploy.md (Backups).
import { runServerCli } from './server-cli.mjs';

process.exit(await runServerCli('restore', 'apps/server/src/restore-cli.ts'));
