// Every command that listens, with the flag that names its port or host, for the end-to-end tests of a listen
// that fails (a port in use, a port not permitted, a host that does not resolve): each runs in a folder of
// its own under `folder`, and a failure is told as its exit status and its error lines.
import { join } from 'node:path';
import { inBatches, runTrader } from './run-trader.js';

/** The flag the error line should name, and the command's arguments. */
export type ListeningCommand = readonly [flag: string, args: readonly string[]];

/** Each command that binds a port, on `port`. */
export function portCommands(folder: string, port: number): ListeningCommand[] {
  return [
    ['--ui=PORT', ['run', 'strategies/sma-crossover.ts', '--journal', join(folder, 'ui', 'journal.sqlite'), `--ui=${port}`]],
    [
      '--metrics-port',
      ['run', 'strategies/sma-crossover.ts', '--journal', join(folder, 'metrics', 'journal.sqlite'), '--metrics-port', `${port}`],
    ],
    ['--health-port', ['schedule', 'examples/schedule.yaml', '--state', join(folder, 'health'), '--health-port', `${port}`]],
    ['--ui=PORT', ['schedule', 'examples/schedule.yaml', '--state', join(folder, 'schedule-ui'), '--health-port', '0', `--ui=${port}`]],
    ['--port', ['sim', '--port', `${port}`]],
    ['--port', ['catalog', 'serve', '--port', `${port}`, '--db', join(folder, 'catalog.sqlite')]],
  ];
}

/** Each command that listens on a host one names, on `host` (free ports). */
export function hostCommands(folder: string, host: string): ListeningCommand[] {
  return [
    ['--ui-host', ['run', 'strategies/sma-crossover.ts', '--journal', join(folder, 'ui', 'journal.sqlite'), '--ui=0', '--ui-host', host]],
    [
      '--ui-host',
      [
        'run',
        'strategies/sma-crossover.ts',
        '--journal',
        join(folder, 'metrics', 'journal.sqlite'),
        '--metrics-port',
        '0',
        '--ui-host',
        host,
      ],
    ],
    [
      '--ui-host',
      ['schedule', 'examples/schedule.yaml', '--state', join(folder, 'schedule'), '--health-port', '0', '--ui=0', '--ui-host', host],
    ],
    ['--host', ['sim', '--port', '0', '--host', host]],
    ['--host', ['catalog', 'serve', '--port', '0', '--host', host, '--db', join(folder, 'catalog.sqlite')]],
  ];
}

/** Runs the commands two at a time (`launcher` before each, e.g. setpriv): their exit statuses and error lines. */
export async function listenOutcomes(
  commands: readonly ListeningCommand[],
  catalogToken: string,
  launcher: readonly string[] = [],
): Promise<(readonly [code: number | null, errors: string[]])[]> {
  const runs = await inBatches(
    commands.map(
      ([, args]) =>
        () =>
          runTrader(args, { CATALOG_TOKENS: catalogToken }, undefined, launcher),
    ),
    2,
  );
  return runs.map((run) => [run.code, run.stderr.split('\n').filter((line) => line.startsWith('error: '))] as const);
}
