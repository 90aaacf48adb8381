// Conventions every `trader` command shares, as a user meets them from the binary: how a malformed command
// line is refused (one line on stderr naming what is wrong, exit status 2, nothing on stdout).
import { describe, expect, it } from 'vitest';
import { inBatches, runTrader } from '../support/http/run-trader.js';

const refused = (stderr: string) => ({ code: 2, stdout: '', stderr });

describe('a flag that takes one value, given twice', () => {
  it('is refused naming the flag and both values, before anything runs or connects', async () => {
    const runs = await inBatches(
      [
        // The service is never asked: no credentials are set.
        () => runTrader(['account', '--currency', 'USD', '--currency', 'HKD'], {}),
        () => runTrader(['candles', '700.HK', '--count', '1', '--count', '2'], {}),
        () => runTrader(['backtest', 'strategies/sma-crossover.ts', '--symbols', 'SPX.US', '--symbols', 'SPX.US', '--quiet'], {}),
      ],
      2,
    );
    expect(runs).toEqual([
      refused('error: --currency given 2 times (USD, HKD): give it once\n'),
      refused('error: --count given 2 times (1, 2): give it once\n'),
      refused('error: --symbols given 2 times (SPX.US, SPX.US): give it once\n'),
    ]);
  });

  it('leaves repeatable flags and switches alone', async () => {
    const run = await runTrader(
      ['backtest', 'strategies/sma-crossover.ts', '--param', 'fast=5', '--param', 'slow=20', '--quiet', '--quiet'],
      {},
    );
    expect(run).toMatchObject({ code: 0, stderr: '' });
  });
});

describe('a command line without its arguments', () => {
  it('names the form of the subcommand whose argument is missing', async () => {
    const runs = await inBatches(
      [
        () => runTrader(['order', 'show'], {}),
        () => runTrader(['data', 'fetch', '--from', '2024-01-01', '--to', '2024-01-31'], {}),
        () => runTrader(['backtest'], {}),
      ],
      2,
    );
    expect(runs).toEqual([
      refused('error: not enough arguments for trader order show <orderId>\nRun with --help for usage.\n'),
      refused('error: not enough arguments for trader data fetch <symbols..>\nRun with --help for usage.\n'),
      refused('error: not enough arguments for trader backtest <strategy>\nRun with --help for usage.\n'),
    ]);
  });

  it('shows the list of commands on stderr when no command is named, as the message says', async () => {
    const run = await runTrader([], {});
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toMatch(/^trader <command> \[options\]\n/);
    expect(run.stderr).toContain('trader backtest <strategy>');
    expect(run.stderr).toMatch(/\n\nerror: Name a command; see the list above\.\nRun with --help for usage\.\n$/);
  });
});

describe('a value that starts with a dash', () => {
  it('is checked as the value of its flag when it starts like a negative number', async () => {
    const run = await runTrader(['run', 'strategies/sma-crossover.ts', '--for', '-5s'], {});
    expect(run).toEqual(refused('error: --for: "-5s" is not a duration (use a number and a unit: 90s, 30m, 2h, 1d)\n'));
  });
});

describe('a flag given an empty value', () => {
  it('is refused naming it, where it was taken as not given or as a name (a journal in a temporary database)', async () => {
    const runs = await inBatches(
      [
        () => runTrader(['run', 'strategies/sma-crossover.ts', '--journal', '', '--for', '1s'], {}),
        // With another flag right after it, yargs reads the same empty value.
        () => runTrader(['run', 'strategies/sma-crossover.ts', '--journal', '--for', '1s'], {}),
        () => runTrader(['schedule', 'examples/schedule.yaml', '--state', ''], {}),
        () => runTrader(['account', '--currency', ''], {}),
      ],
      2,
    );
    expect(runs).toEqual([
      refused('error: --journal needs a value\n'),
      refused('error: --journal needs a value\n'),
      refused('error: --state needs a value\n'),
      refused('error: --currency needs a value\n'),
    ]);
  });
});
