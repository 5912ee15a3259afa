// `npm start`: install what is missing, build what is stale, then run the server, which
// migrates, seeds the demo office on an empty database and serves http://127.0.0.1:8080.
import { buildServer, buildWeb } from './build.mjs';
import { ensureDependencies, root } from './lib.mjs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

ensureDependencies();
buildWeb();
await buildServer();
await import(pathToFileURL(path.join(root, 'apps/server/dist/server.js')).href);
