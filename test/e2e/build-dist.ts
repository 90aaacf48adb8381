// Global setup of the e2e project: the tests run the `trader` binary, which runs dist/, so dist/ is rebuilt
// first whenever src/ changed since the last build (a second or two; nothing when it is fresh). Tests that run
// bin/trader.js as a command (the launcher) start from the snapshot in TRADER_SNAPSHOT_DIR (vitest.config.ts),
// built here when the launcher finds none ready for this build, so no test leaves a background build behind.
import { fileURLToPath } from 'node:url';
import { build } from '../../scripts/build.mjs';
import { TEST_SNAPSHOT_DIR } from '../support/snapshot-dir.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

export default async function buildDist(): Promise<void> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  await build({ types: false, log });
  const { buildSnapshot, snapshotOf } = (await import(
    new URL('../../dist/cli/snapshot/build.js', import.meta.url).href
  )) as typeof import('../../src/cli/snapshot/build.js');
  const found = snapshotOf(REPO, { ...process.env, TRADER_SNAPSHOT_DIR: TEST_SNAPSHOT_DIR });
  if (found === undefined || found.state === 'ready') return;
  log(`start-up snapshot for the tests: ${await buildSnapshot(found.target)} (${found.target.entry})`);
}
