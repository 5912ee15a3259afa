import react from '@vitejs/plugin-react';
import { relative, resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';

const here = import.meta.dirname;

/**
 * Writes `.vite/modules.json` next to Vite's manifest: which source modules each chunk holds and
 * the import graph between modules. scripts/check-web-budget.mjs reads it to prove that no module
 * only the console needs ends up in a chunk the candidate site loads (the manifest alone names
 * chunks, not what is in them). The folder starts with a dot, so the server never serves it.
 */
function moduleMap(): Plugin {
  const name = (id: string) => (id.startsWith('\0') ? id.slice(1) : relative(here, id).split('\\').join('/'));
  return {
    name: 'zhikaoyun-module-map',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks: Record<string, string[]> = {};
      const entries: Record<string, string> = {};
      const graph: Record<string, { imports: string[]; dynamicImports: string[] }> = {};
      for (const out of Object.values(bundle)) {
        if (out.type !== 'chunk') continue;
        chunks[out.fileName] = out.moduleIds.map(name);
        if (out.isEntry && out.facadeModuleId) entries[name(out.facadeModuleId)] = out.fileName;
      }
      for (const id of this.getModuleIds()) {
        const info = this.getModuleInfo(id);
        if (!info) continue;
        graph[name(id)] = { imports: info.importedIds.map(name), dynamicImports: info.dynamicallyImportedIds.map(name) };
      }
      this.emitFile({ type: 'asset', fileName: '.vite/modules.json', source: JSON.stringify({ entries, chunks, graph }) });
    },
  };
}

type Node = { type: string; start: number; end: number };
type Declaration = Node & { declarations?: (Node & { init: Node | null })[] };
type Statement = Node & { declaration?: Declaration | null };

/**
 * Lets the bundler drop packages/shared's schemas a page does not use. Those modules hold both
 * plain constants and zod schemas built by method chains (`z.string().trim().max(40)`), which a
 * bundler must assume have side effects: importing one constant (say DEFAULT_MENU) would pull in
 * the module's every schema and all of zod. The package declares `sideEffects: false`, so each
 * top-level `const x = call(…)` there is rewritten to `const x = /* @__PURE__ *\/ (() => call(…))()`,
 * which evaluates the same, in the same order, and can be dropped when `x` is unused.
 */
function pureSharedSchemas(): Plugin {
  const shared = `${resolve(here, '../../packages/shared/src')}/`.split('\\').join('/');
  return {
    name: 'zhikaoyun-pure-shared-schemas',
    enforce: 'post',
    transform(code, id) {
      if (!id.split('\\').join('/').startsWith(shared)) return null;
      const program = this.parse(code) as unknown as { body: Statement[] };
      const wraps: Node[] = [];
      for (const statement of program.body) {
        const declaration: Declaration | null | undefined =
          statement.type === 'VariableDeclaration' ? statement : statement.type === 'ExportNamedDeclaration' ? statement.declaration : null;
        for (const d of declaration?.type === 'VariableDeclaration' ? (declaration.declarations ?? []) : []) {
          if (d.init && (d.init.type === 'CallExpression' || d.init.type === 'NewExpression')) wraps.push(d.init);
        }
      }
      if (wraps.length === 0) return null;
      let out = code;
      for (const init of wraps.sort((a, b) => b.start - a.start)) {
        out = `${out.slice(0, init.start)}/* @__PURE__ */ (() => ${out.slice(init.start, init.end)})()${out.slice(init.end)}`;
      }
      return { code: out, map: null };
    },
  };
}

/**
 * antd's own packages (@rc-component/*, @ant-design/cssinjs, colors…) do not declare
 * `sideEffects: false` though their modules have none, so a bundler keeps every module they
 * reach: antd's config provider importing one context from @rc-component/form's index would
 * ship the whole form engine to every page. Declared here, only what is used is kept.
 */
const SIDE_EFFECT_FREE =
  /[\\/]node_modules[\\/](@rc-component[\\/]|@ant-design[\\/](colors|cssinjs|cssinjs-utils|fast-color)[\\/]|is-mobile[\\/])/;
function hasSideEffects(id: string): boolean | undefined {
  if (/\.css$/.test(id)) return true;
  return SIDE_EFFECT_FREE.test(id) ? false : undefined;
}

/**
 * In development, /admin and /platform and their deep links open their console's page, as the server's history
 * fallback does in production (Vite alone would answer them with the candidate site).
 */
function consoleFallback(): Plugin {
  return {
    name: 'zk-console-fallback',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        const url = req.url ?? '';
        if (/^\/admin(\/[^.]*)?(\?.*)?$/.test(url)) req.url = '/admin.html';
        if (/^\/platform(\/[^.]*)?(\?.*)?$/.test(url)) req.url = '/platform.html';
        next();
      });
    },
  };
}

// Three entries: the candidate site (index.html), the office console (admin.html) and the
// platform console (platform.html). Each console's code is its own chunk graph and never ships in
// the candidate bundle.
// `vite build --ssr` builds the server render of the public pages instead (src/entry-server.tsx)
// into dist/.ssr/, a module and its chunks that the server loads (a folder starting with a dot is
// never served).
export default defineConfig(({ isSsrBuild }) =>
  isSsrBuild
    ? {
        plugins: [react(), pureSharedSchemas()],
        // React's production build on the server too, whatever NODE_ENV the server runs with.
        define: { 'process.env.NODE_ENV': JSON.stringify('production') },
        ssr: { noExternal: true },
        // Node's export conditions would pick two packages' server builds the page never needs:
        // @ant-design/icons' `node` entry re-exports its CommonJS build, every icon (3 MB, no
        // tree-shaking), and axios's brings its http adapter with mime-db. The browser's ES
        // modules render the same markup, and the server's heap holds 35 MB less.
        resolve: {
          alias: [
            { find: /^@ant-design\/icons$/, replacement: resolve(here, '../../node_modules/@ant-design/icons/es/index.js') },
            { find: /^axios$/, replacement: resolve(here, '../../node_modules/axios/dist/esm/axios.js') },
          ],
        },
        build: {
          ssr: resolve(here, 'src/entry-server.tsx'),
          outDir: 'dist/.ssr',
          emptyOutDir: false,
          sourcemap: false,
          copyPublicDir: false,
          // Split, so what the page imports lazily (the HEIC converter of the photo field, 3 MB; the
          // logged-in pages) stays in chunks the render never loads.
          rollupOptions: { output: { entryFileNames: 'entry-server.js' } },
        },
      }
    : {
        plugins: [react(), pureSharedSchemas(), moduleMap(), consoleFallback()],
        build: {
          outDir: 'dist',
          emptyOutDir: true,
          sourcemap: false,
          // The budget check (scripts/check-web-budget.mjs) reads which chunks each page loads from here.
          manifest: true,
          rollupOptions: {
            treeshake: { moduleSideEffects: hasSideEffects },
            input: {
              index: resolve(here, 'index.html'),
              admin: resolve(here, 'admin.html'),
              // The platform console (issue 31): its own entry, like the office console's.
              platform: resolve(here, 'platform.html'),
            },
          },
        },
        server: {
          proxy: { '/api': process.env.ZK_DEV_API ?? 'http://127.0.0.1:8080' },
        },
      },
);
