// ESLint flat config: typescript-eslint everywhere, React hooks rules in the web app, and the
// import boundaries that keep the layers apart (shared imports no app; server and web never import each
// other; no feature imports another; lib and components import no feature).
import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import { readdirSync } from 'node:fs';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { BUDGET_ROUTES, MEASURED_ROUTES } from './scripts/check-web-budget.mjs';

// The candidate site's pages built without antd's runtime: those the JavaScript budget weighs
// (scripts/check-web-budget.mjs), which the router loads without antd's providers.
const plainPages = [...Object.values(BUDGET_ROUTES), ...Object.values(MEASURED_ROUTES)].flat().map((page) => `apps/web/${page}`);

// Each feature is features/<stage>/<noun> (the stages of the exam, as in the server's modules).
const subfolders = (dir) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
const features = subfolders('apps/web/src/features').flatMap((stage) =>
  subfolders(`apps/web/src/features/${stage}`).map((noun) => `${stage}/${noun}`),
);

// "Today" is the office's day, from the clock module only (docs/decisions/022): see the rule below.
const dateCuts = [
  ...['slice', 'substring', 'substr', 'split'].flatMap((cut) => [
    {
      selector: `CallExpression[callee.property.name='${cut}'][callee.object.callee.property.name=/^(toISOString|toJSON|nowIso)$/]`,
      message: `An instant cut into a date is the UTC day: use clock.today(timeZone) or zonedDay(instant, timeZone) (docs/decisions/022).`,
    },
    {
      selector: `CallExpression[callee.property.name='${cut}'][callee.object.callee.name='nowIso']`,
      message: `An instant cut into a date is the UTC day: use clock.today(timeZone) or zonedDay(instant, timeZone) (docs/decisions/022).`,
    },
    // Whatever the text, its first ten characters are a date cut out by hand: of an instant
    // that is the UTC day (retention's audit line and the daily job's day were), of a wall
    // clock it is a rule the clock module already has (zonedDay, zonedSpan).
    {
      selector: `CallExpression[callee.property.name='${cut}'][arguments.length=2][arguments.0.value=0][arguments.1.value=10]`,
      message: `A date cut out of a text by hand: use zonedDay(instant, timeZone), or zonedSpan for a sitting's time (docs/decisions/022).`,
    },
  ]),
];

// An antd icon says its English name ("key", "close-circle") to a screen reader unless told not
// to: beside words it is decoration (aria-hidden); alone it needs a Chinese aria-label (issue 34).
const iconNames = {
  selector: 'JSXOpeningElement[name.name=/(Outlined|Filled|TwoTone)$/]:not(:has(JSXAttribute[name.name=/^aria-(hidden|label)$/]))',
  message: 'An antd icon reads its English name to a screen reader: add aria-hidden (beside words) or a Chinese aria-label (alone).',
};

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'test-results/**', 'playwright-report/**', 'bench/results/**', 'data/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    plugins: { import: importPlugin },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } },
      // import/no-cycle reads the imported files: with this parser, TypeScript's too.
      'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'off',
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './packages/shared', from: './apps', message: 'packages/shared is imported by the apps, never the other way round.' },
            { target: './apps/server', from: './apps/web', message: 'The server never imports the web app.' },
            {
              target: './apps/web',
              from: './apps/server',
              message: 'The web app never imports the server; share through packages/shared.',
            },
            // The server's layers: the database layer under the modules, the configuration read
            // by the composition root alone (composition*.ts, app.ts and the entry points), which
            // hands modules, lib and plugins plain typed options. The demo seeds (src/seed/) stand
            // beside the database layer and may import both it and the modules.
            {
              target: './apps/server/src/db',
              from: ['./apps/server/src/modules', './apps/server/src/seed'],
              message: 'The database layer imports no module; seeds that need modules live in src/seed/.',
            },
            {
              target: [
                './apps/server/src/modules',
                './apps/server/src/lib',
                './apps/server/src/db',
                './apps/server/src/plugins',
                './apps/server/src/seed',
              ],
              from: ['./apps/server/src/config.ts', './apps/server/src/config-env.ts'],
              message:
                'Only the composition root reads config: take the options you need as a typed parameter (define the type here; config.ts imports it).',
            },
            {
              target: ['./apps/server/src/modules', './apps/server/src/lib', './apps/server/src/db', './apps/server/src/seed'],
              from: [
                './apps/server/src/composition.ts',
                './apps/server/src/composition-options.ts',
                './apps/server/src/composition-repositories.ts',
                './apps/server/src/composition-later-stages.ts',
                './apps/server/src/app.ts',
                './apps/server/src/server.ts',
              ],
              message: 'The composition root imports the modules, never the other way round.',
            },
            // The web app's layers: app/ (router, layout, guard) on top of features, features on
            // components, components on lib.
            {
              target: ['./apps/web/src/features', './apps/web/src/components', './apps/web/src/lib'],
              from: './apps/web/src/app',
              message:
                'Only the shell (main.tsx, entry-server.tsx, admin/) imports app/; move what a feature or component needs to lib/ or pass it in.',
            },
            {
              target: './apps/web/src/lib',
              from: './apps/web/src/components',
              message: 'lib/ imports no component; move the shared piece to lib/.',
            },
            { target: './apps/web/src/lib', from: './apps/web/src/features', message: 'lib/ imports no feature.' },
            { target: './apps/web/src/components', from: './apps/web/src/features', message: 'components/ imports no feature.' },
            ...features.map((name) => ({
              target: `./apps/web/src/features/${name}`,
              from: './apps/web/src/features',
              except: [`./${name}`],
              message: 'No feature imports another (features stay independent); move what both need to lib/ or components/.',
            })),
          ],
        },
      ],
      // No module reaches itself through its imports, in any package (type-only imports, which
      // vanish at build, aside). Packages are left to their own lint: following them would walk
      // the whole dependency graph of every file.
      'import/no-cycle': ['error', { ignoreExternal: true, disableScc: true }],
    },
  },
  // Type-aware rules on the source and its tests (floating and misused promises, unbound
  // methods, awaits of non-promises…), with each project's tsconfig found by the project service.
  {
    files: ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts', 'apps/*/test/**/*.{ts,tsx}', 'packages/*/test/**/*.ts'],
    extends: [tseslint.configs.recommendedTypeCheckedOnly],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Fastify's plugins and hooks, antd's form validators and our providers' interfaces are
      // promise-returning by contract: `async` is how a function without an await meets them.
      // The real promise mistakes are no-floating-promises' and no-misused-promises' (docs/decisions/010).
      '@typescript-eslint/require-await': 'off',
      // A JSX handler's return value is ignored by React, and antd waits for one where it means
      // something (Popconfirm's onConfirm, Form's onFinish show loading): promises there are meant.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  // "Today" is the office's day, from the clock module only (docs/decisions/022): the UTC date of
  // an instant is yesterday from 00:00 to 08:00 in Beijing, so cutting one out of an ISO text
  // made the position list and submit disagree on a candidate's age.
  {
    files: ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts'],
    ignores: ['packages/shared/src/clock.ts', 'apps/server/src/lib/clock.ts'],
    rules: {
      'no-restricted-syntax': ['error', ...dateCuts],
    },
  },
  {
    files: ['apps/web/src/**/*.tsx'],
    rules: { 'no-restricted-syntax': ['error', ...dateCuts, iconNames] },
  },
  // The plain kit on the public pages (docs/decisions/026): the pages held to the JavaScript
  // budget, the plain kit and the site's shell draw antd's look without antd's runtime, which
  // would add to every page's first load on a phone. What needs antd there loads it lazily
  // (`import()`, which this rule leaves alone); antd's types cost nothing and are allowed. The
  // icons are antd's but stand alone (an SVG component each, their styles in global.css).
  {
    files: [...plainPages, 'apps/web/src/components/plain/**', 'apps/web/src/main.tsx', 'apps/web/src/app/**'],
    // The page for unknown paths is loaded with antd's providers (router.tsx `scoped`).
    ignores: ['apps/web/src/app/NotFoundPage.tsx'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['antd', 'antd/*', '@ant-design/*', '!@ant-design/icons', '!@ant-design/icons/*'],
              allowTypeImports: true,
              message:
                "A page built without antd's runtime (docs/decisions/026): use the plain kit (components/plain/), or load the antd part lazily with import().",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  // The web app calls the server only from its api files (features/<noun>/api.ts,
  // features/<noun>/console/api.ts, lib/api/<noun>.ts): pages and components call their typed
  // functions and hooks, never the HTTP client, axios or fetch themselves.
  {
    files: ['apps/web/src/**/*.tsx', 'apps/web/src/components/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/http', '**/console-http', '**/api-client', 'axios'],
              message: "Pages and components do not call the server: add a typed call to the noun's api.ts and use it.",
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...['fetch', 'XMLHttpRequest'].map((name) => ({
          name,
          message: "Pages and components do not call the server: add a typed call to the noun's api.ts and use it.",
        })),
      ],
    },
  },
  {
    files: ['**/test/**', 'e2e/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Tests read the API's JSON answers untyped on purpose and assert their shape field by
      // field: typing every answer again in the tests would repeat the schemas they check.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
);
