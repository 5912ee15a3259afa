// `npm run rotate-data-key`: re-encrypts every ID number and hint answer with DATA_KEY and
// recomputes the blind indexes, reading old rows with DATA_KEY_PREVIOUS, and re-seals the audit
// chains under the new key (docs/security.md). The work is done by the server's own modules.
import { runServerCli } from './server-cli.mjs';

process.exit(await runServerCli('rotate-data-key', 'apps/server/src/rotate-data-key-cli.ts'));
