// `npm run backup`: see apps/server/src/backup-cli.ts and docs/deploy.md (Backups).
import { runServerCli } from './server-cli.mjs';

process.exit(await runServerCli('backup', 'apps/server/src/backup-cli.ts'));
