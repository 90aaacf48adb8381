// The example schedule of the README must keep working from a fresh clone: it parses with the runtime's risk
// schema, its strategy files exist, and the paper data it replays has the jobs' symbols.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { riskConfigSchema } from '../../src/risk/config.js';
import { loadScheduleConfig } from '../../src/schedule/config.js';

const EXAMPLE = fileURLToPath(new URL('../../examples/schedule.yaml', import.meta.url));

describe('examples/schedule.yaml', () => {
  it('is a valid paper schedule over the bundled history', async () => {
    const config = await loadScheduleConfig(EXAMPLE, { riskSchema: riskConfigSchema });

    expect(config.mode).toBe('paper');
    expect(config.jobs.map((job) => job.name)).toEqual(['spx-trend', 'spx-dca']);
    for (const job of config.jobs) {
      expect(job.target.kind === 'strategy' && existsSync(job.target.path)).toBe(true);
      for (const symbol of job.symbols)
        expect(config.paper!.data.some((folder) => existsSync(path.join(folder, `${symbol}.csv`)))).toBe(true);
    }
  });
});
