// The heavy worker thread (built to dist/heavy-worker.js beside the server): runs the tasks of
// heavy-tasks.ts one at a time for the main thread's pool (lib/worker-pool.ts; decision 014).
import { setChineseZodMessages } from '@zhikaoyun/shared';
import { HEAVY_HANDLERS } from './heavy-tasks';
import { serveTasks } from './lib/worker-pool';

// The sheets' row errors are the shared schemas' messages, in Chinese as on the main thread.
setChineseZodMessages();
serveTasks(HEAVY_HANDLERS);
