// `trader run` through the real binary: a paper run against the built-in simulator stopped with Ctrl-C,
// and the refusals of a live run that lacks its confirmation or its credentials.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sqliteRows } from '../support/sqlite-rows.js';
import { afterEach, describe, expect, it } from 'vitest';
import { runTrader } from '../support/http/run-trader.js';
import { AAPL, wavingDays } from '../support/run/candles.js';
import { removeTempFolders, tempFolder } from '../support/run/paper-harness.js';
import { spawnRun } from '../support/run/spawn-run.js';
import { writeCandleFolder } from '../support/sim/candles.js';

afterEach(removeTempFolders);

const journalRows = sqliteRows;

describe('trader run (binary)', () => {
  it('paper-trades sma-crossover against the built-in simulator, stops on Ctrl-C with exit 0 and prints the summary', async () => {
    const data = await writeCandleFolder([wavingDays(60)]);
    const journal = join(await tempFolder(), 'journal.sqlite');
    const run = spawnRun([
      'strategies/sma-crossover.ts',
      '--symbols',
      AAPL,
      '--data',
      data,
      '--speed',
      '2000000',
      '--journal',
      journal,
      '--param',
      'fast=3',
      '--param',
      'slow=6',
      '--param',
      'quantity=10',
      '--json-logs',
      '--json',
    ]);

    await run.waitForLog('replay finished', 60_000);
    const exit = await run.signal('SIGINT');

    expect(exit).toEqual({ code: 0, signal: null });
    const summary = JSON.parse(run.stdout()) as {
      mode: string;
      orders: number;
      fills: number;
      strategies: { state: string }[];
      positions: { symbol: string }[];
    };
    expect(summary.mode).toBe('paper');
    expect(summary.orders).toBeGreaterThanOrEqual(3);
    expect(summary.strategies.map((strategy) => strategy.state)).toEqual(['stopped']);
    const logs = run
      .stderr()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string });
    const messages = logs.map((line) => line.msg);
    expect(messages).toEqual(
      expect.arrayContaining([
        'quote connection online',
        'trade connection online',
        'order submitted',
        'fill',
        expect.stringMatching(/^stopping \(interrupted\)/),
      ]),
    );
    expect(journalRows<{ count: number }>(journal, 'SELECT COUNT(*) AS count FROM orders')[0]!.count).toBe(summary.orders);
    expect(journalRows<{ count: number }>(journal, 'SELECT COUNT(*) AS count FROM fills')[0]!.count).toBe(summary.fills);
    expect(journalRows<{ type: string }>(journal, 'SELECT type FROM events').map((row) => row.type)).toEqual(['started', 'stopped']);
  }, 120_000);

  it("ends a paper run whose only strategy threw with exit 1, naming the line in the strategy's file and the bar", async () => {
    const data = await writeCandleFolder([wavingDays(20)]);
    const journal = join(await tempFolder(), 'journal.sqlite');
    const strategy = 'test/support/backtest/strategies/throws.ts';
    const args = ['--symbols', AAPL, '--param', 'at=3', '--data', data, '--speed', '2000000', '--journal', journal];

    const [text, json] = await Promise.all([
      runTrader(['run', strategy, ...args], {}),
      runTrader(['run', strategy, ...args.map((arg) => (arg === journal ? `${journal}.2` : arg)), '--json'], {}),
    ]);

    const line = (await readFile(strategy, 'utf8')).split('\n').findIndex((source) => source.includes('throw new Error')) + 1;
    const failure = new RegExp(
      `strategy throws \\(${strategy.replaceAll('.', '\\.')}\\) failed at ${strategy.replaceAll('.', '\\.')}:${line}:\\d+, on the AAPL\\.US day bar of 2024-01-04 \\(index 2\\): boom at bar 3`,
    );
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(failure);
    expect(text.stderr).toMatch(failure);
    expect(json.code).toBe(1);
    const summary = JSON.parse(json.stdout) as { strategies: unknown[] };
    expect(summary.strategies).toEqual([
      {
        name: 'throws',
        source: strategy,
        state: 'failed',
        error: 'boom at bar 3',
        location: { file: strategy, line, column: expect.any(Number) },
        bar: { symbol: AAPL, period: 'day', time: '2024-01-04T00:00:00-05:00', index: 2 },
      },
    ]);
  }, 120_000);

  it('paper: stops on a bad CSV row naming the file and line, and replays the rest with --on-bad-row skip', async () => {
    const data = await writeCandleFolder([wavingDays(10)]);
    const file = join(data, `${AAPL}.csv`);
    const lines = (await readFile(file, 'utf8')).split('\n');
    lines[3] = `${lines[3]!.split(',')[0]},abc,1,1,1,1`;
    await writeFile(file, lines.join('\n'));
    const folder = await tempFolder();
    const args = ['strategies/sma-crossover.ts', '--symbols', AAPL, '--data', data, '--for', '1s'];

    const [failed, skipped, live] = await Promise.all([
      runTrader(['run', ...args, '--journal', join(folder, 'a.sqlite')], {}),
      runTrader(['run', ...args, '--journal', join(folder, 'b.sqlite'), '--on-bad-row', 'skip'], {}),
      runTrader(['run', 'strategies/sma-crossover.ts', '--live', '--yes', '--on-bad-row', 'skip'], {
        LONGPORT_APP_KEY: 'key',
        LONGPORT_APP_SECRET: 'secret',
        LONGPORT_ACCESS_TOKEN: 'token',
      }),
    ]);

    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toContain(`${file}:4: unparseable open "abc"`);
    expect(skipped.code).toBe(0);
    expect(skipped.stderr).toContain(`${file}:4: unparseable open`);
    expect(skipped.stdout).toMatch(/^Run summary \(paper/);
    expect(live.code).toBe(2);
    expect(live.stderr).toContain('--on-bad-row only apply to paper runs');
  }, 120_000);

  it('refuses --live without --yes and without credentials, naming the flag and every missing variable', async () => {
    const result = await runTrader(['run', 'strategies/sma-crossover.ts', '--live'], {});

    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(
      'error: refusing to trade live: add --yes to confirm that real orders with real money are wanted; and set LONGPORT_APP_KEY, LONGPORT_APP_SECRET, LONGPORT_ACCESS_TOKEN (your LongPort app key, app secret and access token)',
    );
    expect(result.stdout).toBe('');
  });

  it('paper: --short lets a sell while flat open a short (with its borrow fee), which is denied without it', async () => {
    const data = await writeCandleFolder([wavingDays(10)]);
    const folder = await tempFolder();
    const strategy = 'test/support/backtest/strategies/sells-first.ts';
    const common = ['run', strategy, '--symbols', AAPL, '--data', data, '--speed', '2000000', '--for', '5s', '--json'];
    const [short, flat] = await Promise.all([
      runTrader([...common, '--short', '--borrow-rate', '0.03', '--short-margin', '1.5', '--journal', join(folder, 'a.sqlite')], {}),
      runTrader([...common, '--journal', join(folder, 'b.sqlite')], {}),
    ]);

    expect(short.code).toBe(0);
    const shortSummary = JSON.parse(short.stdout) as { positions: { symbol: string; quantity: string }[]; denialsByCode: object };
    expect(shortSummary.positions.map((position) => [position.symbol, String(position.quantity)])).toEqual([[AAPL, '-10']]);
    expect(shortSummary.denialsByCode).toEqual({});
    expect(flat.code).toBe(0);
    expect((JSON.parse(flat.stdout) as { denialsByCode: object }).denialsByCode).toEqual({ SHORT_SELLING_NOT_ALLOWED: 1 });
  }, 120_000);

  it('paper-trades six symbols against the simulator and its call limits (10 quote calls a second)', async () => {
    const symbols = ['AAPL.US', 'MSFT.US', 'IBM.US', 'KO.US', 'PEP.US', 'XOM.US'];
    const data = await writeCandleFolder(symbols.map((symbol) => wavingDays(40).map((candle) => ({ ...candle, symbol: symbol as never }))));
    const folder = await tempFolder();
    const run = await runTrader(
      [
        'run',
        'test/research/strategies/every-symbol.ts',
        '--symbols',
        symbols.join(','),
        '--data',
        data,
        '--speed',
        '2000000',
        '--for',
        '5s',
        '--journal',
        join(folder, 'six.sqlite'),
      ],
      {},
    );
    expect(run.stderr).not.toMatch(/rate limited|301606|fewer than the/);
    expect(run.code).toBe(0);
    for (const symbol of symbols) expect(run.stdout).toContain(symbol);
  }, 120_000);

  it('stops by itself after --for with exit 0, and names the data a paper run lacks for a symbol', async () => {
    const data = await writeCandleFolder([wavingDays(10)]);
    const folder = await tempFolder();
    const [timed, unknown] = await Promise.all([
      runTrader(
        ['run', 'strategies/sma-crossover.ts', '--symbols', AAPL, '--data', data, '--for', '1s', '--journal', join(folder, 'a.sqlite')],
        {},
      ),
      runTrader(['run', 'strategies/sma-crossover.ts', '--symbols', 'MSFT.US', '--data', data, '--journal', join(folder, 'b.sqlite')], {}),
    ]);

    expect(timed.code).toBe(0);
    expect(timed.stderr).toContain('stopping (--for 1s is up)');
    expect(timed.stdout).toMatch(/^Run summary \(paper, \d+s\)\n {2}strategies {2}sma-crossover: stopped\n/);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim().split('\n').at(-1)).toBe(
      `error: no candle file for MSFT.US in ${data} (looked for MSFT.US.csv or MSFT.csv, or .parquet): a paper run replays candle files; point --data at SYMBOL.csv files for the strategy's symbols`,
    );
  }, 120_000);
});
