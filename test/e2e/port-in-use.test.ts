// A port another process holds is a failure of the moment, not bad input: every command that binds one says
// which flag picks another and exits with status 1 (a restart may find it free; exit status 2 stops systemd's).
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inBatches, runTrader } from '../support/http/run-trader.js';

let folder: string;
let holder: Server;
let port: number;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'port-in-use-'));
  holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  port = (holder.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise((resolve) => holder.close(resolve));
  await rm(folder, { recursive: true, force: true });
});

describe('a port already in use', () => {
  it('exits 1 naming the flag that picks another, for every command that listens', async () => {
    const commands: readonly (readonly [flag: string, args: readonly string[]])[] = [
      ['--ui=PORT', ['run', 'strategies/sma-crossover.ts', '--journal', join(folder, 'ui', 'journal.sqlite'), `--ui=${port}`]],
      [
        '--metrics-port',
        ['run', 'strategies/sma-crossover.ts', '--journal', join(folder, 'metrics', 'journal.sqlite'), '--metrics-port', `${port}`],
      ],
      ['--health-port', ['schedule', 'examples/schedule.yaml', '--state', join(folder, 'schedule'), '--health-port', `${port}`]],
      ['--port', ['sim', '--port', `${port}`]],
      ['--port', ['catalog', 'serve', '--port', `${port}`, '--db', join(folder, 'catalog.sqlite')]],
    ];

    const runs = await inBatches(
      commands.map(
        ([, args]) =>
          () =>
            runTrader(args, { CATALOG_TOKENS: 'port-in-use-token' }),
      ),
      2,
    );

    expect(runs.map((run) => [run.code, run.stderr.split('\n').find((line) => line.startsWith('error: '))])).toEqual(
      commands.map(([flag]) => [1, `error: port ${port} on 127.0.0.1 is already in use: pick another with ${flag} (0 picks a free one)`]),
    );
  }, 180_000);
});
