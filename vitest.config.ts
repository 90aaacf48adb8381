import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { TEST_SNAPSHOT_DIR } from './test/support/snapshot-dir.js';

// Two projects: `unit` (in-process, servers on 127.0.0.1 allowed) answers fast; `e2e` spawns the binary, which
// runs dist/ (its global setup rebuilds dist/ first when src/ changed since the last build, and the start-up
// snapshot when the launcher finds none ready), or drives pages in a browser (*.browser.test.ts).
const E2E = ['test/e2e/**/*.test.ts', 'test/catalog/cli.test.ts', 'test/**/*.browser.test.ts'];
const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    // Strategies import the package by name: in tests that is the source, the same modules the tests import.
    alias: [
      { find: /^longport-trader$/, replacement: source('./src/index.ts') },
      { find: /^longport-trader\/(.*)$/, replacement: `${source('./src/api/')}$1.ts` },
    ],
  },
  test: {
    // Strategies compiled by the tests (and the binaries they run) are cached here, not in the user's ~/.cache;
    // so are the start-up snapshots the launcher (bin/trader.js run as a command) starts from.
    env: {
      TRADER_CACHE_DIR: join(tmpdir(), 'longport-trader-test-cache'),
      TRADER_SNAPSHOT_DIR: TEST_SNAPSHOT_DIR,
    },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts', 'strategies/**/*.test.ts'], exclude: E2E, isolate: false } },
      { extends: true, test: { name: 'e2e', include: E2E, globalSetup: ['test/e2e/build-dist.ts'] } },
    ],
  },
});
