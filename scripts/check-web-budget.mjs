// The candidate site's JavaScript budget: reads the built web app (apps/web/dist, or
// `--dist DIR`) and fails when a page's initial JavaScript is over budget or when code only the
// office console needs has leaked into the candidate's chunks.
//
// Initial JavaScript of a route = every .js file the browser must fetch before that route can
// render:
//   - the scripts and modulepreloads that index.html names (the entry chunk and its static
//     imports), plus the entry's static import closure from the Vite manifest, and
//   - the route's lazy page chunk and its static import closure (the router loads the page
//     before it renders anything, so these are on the critical path too), and for a page built on
//     antd and TanStack Query the providers the router loads with it (src/lib/providers.tsx).
// Each file is counted once, at its gzip size (level 9, as the server's precompressed .gz).
// Chunks loaded later (dynamic imports inside a page, other pages) are not counted.
//
// With the public pages rendered on the server the page is readable before any of it runs, but
// all of it is parsed, run and hydrated before the page answers a tap, so the budget still holds.
//
// `node scripts/check-web-budget.mjs [--dist DIR] [--max-kib N]` (N defaults to the target, 120);
// `npm run check:web-budget`. Routes in MEASURED_ROUTES are reported but not held to N yet.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { root } from './lib.mjs';

export const BUDGET_KIB = 120;

/** The routes with a budget and the modules the router loads for each before it renders (apps/web/src/app/router.tsx). */
export const BUDGET_ROUTES = {
  '/': ['src/features/content/guide/pages/GuidePage.tsx'],
  '/notice-list': ['src/features/content/notices/pages/NoticeListPage.tsx'],
  '/notice-detail/{id}': ['src/features/content/notices/pages/NoticeDetailPage.tsx'],
  '/login': ['src/features/access/accounts/pages/LoginPage.tsx'],
  '/job-positions-only-read': ['src/features/content/positions/pages/JobPositionsReadOnlyPage.tsx'],
  '/register': ['src/features/access/accounts/pages/RegisterPage.tsx'],
  // Not public, but rendered on the server as a shell and hydrated the same way (#19).
  '/exam-list': ['src/features/content/exams/pages/ExamListPage.tsx'],
};

/**
 * Routes measured and printed, not held to the budget: the personal center (rendered as a shell
 * too; it reads through TanStack Query, whose small provider chunk (lib/query-scope.tsx) the
 * router loads with it and is not counted here). A page built on antd and TanStack Query is
 * listed with what the router loads with it (router.tsx `scoped`): [its page module,
 * 'src/lib/providers.tsx'].
 */
export const MEASURED_ROUTES = {
  '/personal-center': ['src/features/access/accounts/pages/PersonalCenterPage.tsx'],
};

/** Source folders whose code belongs to the console alone; none of it may reach a candidate chunk. */
const ADMIN_ONLY = [
  /^admin\.html$/,
  /^src\/admin\//,
  /^src\/features\/[^/]+\/(staff|review|audit|appeals)\//,
  /^src\/(features\/[^/]+\/[^/]+\/|components\/)console\//,
  /^src\/lib\/(staff-session|console-http|api\/console-[^/]+)\.ts$/,
  /^platform\.html$/,
  /^src\/platform\//,
  /^src\/features\/platform\/offices\//,
  /^src\/lib\/platform-session\.ts$/,
];

const kib = (bytes) => bytes / 1024;

function readJson(file) {
  if (!existsSync(file)) throw new Error(`${path.relative(root, file)} is missing: build the web app first (node scripts/build.mjs --web)`);
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** The .js files named by index.html's <script type="module" src> and <link rel="modulepreload" href>. */
export function htmlScripts(html) {
  const files = new Set();
  for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
    const isModuleScript = tag.startsWith('<script') && /\btype="module"/.test(tag);
    const isPreload = tag.startsWith('<link') && /\brel="modulepreload"/.test(tag);
    const url = /\b(?:src|href)="([^"]+)"/.exec(tag)?.[1];
    if ((isModuleScript || isPreload) && url && url.endsWith('.js')) files.add(url.replace(/^\//, ''));
  }
  return files;
}

/** The output files of a manifest key and everything it imports statically. */
export function staticClosure(manifest, key, into = new Set()) {
  const seen = new Set();
  const visit = (k) => {
    if (seen.has(k)) return;
    seen.add(k);
    const chunk = manifest[k];
    if (!chunk) throw new Error(`the Vite manifest has no entry ${k}`);
    into.add(chunk.file);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  visit(key);
  return into;
}

/** Every output file reachable from a manifest key, static or dynamic. */
function fullClosure(manifest, key) {
  const files = new Set();
  const seen = new Set();
  const visit = (k) => {
    if (seen.has(k)) return;
    seen.add(k);
    const chunk = manifest[k];
    if (!chunk) return;
    files.add(chunk.file);
    for (const dep of [...(chunk.imports ?? []), ...(chunk.dynamicImports ?? [])]) visit(dep);
  };
  visit(key);
  return files;
}

/** Source modules the candidate's own code imports, statically or lazily, from index.html. */
function candidateModules(modules) {
  const seen = new Set();
  const stack = ['index.html'];
  while (stack.length) {
    const id = stack.pop();
    if (seen.has(id)) continue;
    seen.add(id);
    const node = modules.graph[id];
    if (node) stack.push(...node.imports, ...node.dynamicImports);
  }
  return seen;
}

export function checkWebBudget(dist, budgetKiB = BUDGET_KIB) {
  const manifest = readJson(path.join(dist, '.vite/manifest.json'));
  const modules = readJson(path.join(dist, '.vite/modules.json'));
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const sizes = new Map();
  const sizeOf = (file) => {
    if (!sizes.has(file)) {
      const body = readFileSync(path.join(dist, file));
      sizes.set(file, { raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
    }
    return sizes.get(file);
  };

  const problems = [];
  const entry = manifest['index.html'];
  if (!entry?.isEntry) throw new Error('the Vite manifest has no index.html entry');
  const initial = staticClosure(manifest, 'index.html', htmlScripts(html));

  const rows = [];
  const routes = [...Object.entries(BUDGET_ROUTES).map((r) => [...r, true]), ...Object.entries(MEASURED_ROUTES).map((r) => [...r, false])];
  // A module shared with the console is in a chunk of its own, named by its file, not its source.
  const keyOf = (id) => {
    if (manifest[id]) return id;
    const file = Object.entries(modules.chunks).find(([, ids]) => ids.includes(id))?.[0];
    return Object.keys(manifest).find((key) => manifest[key].file === file) ?? id;
  };
  for (const [route, pages, guarded] of routes) {
    const keys = pages.map(keyOf);
    const missing = pages.filter((_, i) => !(entry.dynamicImports ?? []).includes(keys[i]));
    if (missing.length) {
      problems.push(`${route}: ${missing.join(', ')} is not a lazy import of index.html (router.tsx changed? update BUDGET_ROUTES)`);
      continue;
    }
    const files = new Set(initial);
    for (const key of keys) staticClosure(manifest, key, files);
    let raw = 0;
    let gzip = 0;
    for (const file of files) {
      raw += sizeOf(file).raw;
      gzip += sizeOf(file).gzip;
    }
    const over = kib(gzip) > budgetKiB;
    if (over && guarded) problems.push(`${route}: initial JS ${kib(gzip).toFixed(1)} KiB gzip is over the ${budgetKiB} KiB budget`);
    rows.push({ route, files: files.size, rawKiB: kib(raw), gzipKiB: kib(gzip), ok: !over, guarded });
  }

  // The console never ships to candidates: no chunk the candidate site can load holds a module that
  // only the console imports, nor anything from the console's folders.
  const reachable = candidateModules(modules);
  const candidateChunks = fullClosure(manifest, 'index.html');
  const adminEntry = manifest['admin.html']?.file;
  if (adminEntry && candidateChunks.has(adminEntry)) problems.push(`the candidate site can load the console's entry ${adminEntry}`);
  const platformEntry = manifest['platform.html']?.file;
  if (platformEntry && candidateChunks.has(platformEntry))
    problems.push(`the candidate site can load the platform console's entry ${platformEntry}`);
  for (const file of candidateChunks) {
    for (const id of modules.chunks[file] ?? []) {
      if (ADMIN_ONLY.some((re) => re.test(id))) problems.push(`${file} (candidate site) holds console code: ${id}`);
      // Modules the bundler generates (its runtime) are in no import graph; everything else is.
      else if (modules.graph[id] && !reachable.has(id))
        problems.push(`${file} (candidate site) holds a module only the console imports: ${id}`);
    }
  }
  // A named cause for the commonest regression: a constant the shell imports from a shared module
  // that also holds schemas brings all of zod along (keep such constants in constants.ts).
  for (const file of initial) {
    if ((modules.chunks[file] ?? []).some((id) => /node_modules\/zod\//.test(id))) {
      problems.push(`${file} (loaded by index.html) holds zod: the entry imports a shared module with schemas`);
      break;
    }
  }
  return { rows, problems, candidateChunks: candidateChunks.size };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const option = (name) => {
    const at = process.argv.indexOf(name);
    return at > 0 ? process.argv[at + 1] : undefined;
  };
  const dist = path.resolve(option('--dist') ?? path.join(root, 'apps/web/dist'));
  const budget = Number(option('--max-kib') ?? BUDGET_KIB);
  let result;
  try {
    result = checkWebBudget(dist, budget);
  } catch (error) {
    console.error(`✖ web budget: ${error.message}`);
    process.exit(1);
  }
  console.log(`Initial JS per route (entry + modulepreloads + the route's page chunk and its static imports), budget ${budget} KiB gzip:`);
  console.log('route                     files   raw KiB  gzip KiB');
  for (const r of result.rows) {
    console.log(
      `${r.route.padEnd(25)} ${String(r.files).padStart(5)}  ${r.rawKiB.toFixed(1).padStart(8)}  ${r.gzipKiB.toFixed(1).padStart(8)}  ${r.ok ? 'ok' : r.guarded ? 'OVER' : 'over (measured only)'}`,
    );
  }
  console.log(`${result.candidateChunks} chunks reachable from the candidate site checked for console code`);
  if (result.problems.length) {
    for (const p of result.problems) console.error(`✖ ${p}`);
    process.exit(1);
  }
  console.log('✓ web budget met');
}
