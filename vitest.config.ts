import { defineConfig } from 'vitest/config';

// One run, three projects: the shared rules, the server (real databases through inject()), and
// the web app's units (happy-dom). Each project's own config sits in its folder.
export default defineConfig({
  test: {
    projects: ['packages/shared', 'apps/server', 'apps/web'],
  },
});
