// The server's tests start the real worker threads (an export runs in dist/export-worker.js):
// bundled from the current sources first, when stale.
import { buildServer } from '../../../scripts/build.mjs';

export default async function setup() {
  await buildServer();
}
