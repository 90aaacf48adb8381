import { defineConfig } from 'vitest/config';

// Two projects: `unit` (in-process, servers on 127.0.0.1 allowed) answers fast; `e2e` spawns the binary
// or drives pages in a browser (*.browser.test.ts).
const E2E = ['test/e2e/**/*.test.ts', 'test/catalog/cli.test.ts', 'test/**/*.browser.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts', 'strategies/**/*.test.ts'], exclude: E2E, isolate: false } },
      { extends: true, test: { name: 'e2e', include: E2E } },
    ],
  },
});
