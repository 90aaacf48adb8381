// Where the tests' start-up snapshots go (TRADER_SNAPSHOT_DIR of every test process, vitest.config.ts), not the
// user's ~/.cache: the e2e global setup builds the checkout's snapshot there.
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const TEST_SNAPSHOT_DIR = join(tmpdir(), 'longport-trader-test-snapshots');
