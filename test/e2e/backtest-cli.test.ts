// `trader backtest` through the real binary on the bundled data: the README's main command, JSON for
// scripts, the report and JSON files (the page opened in headless Chromium), bad data and bad flags.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backtestResultSchema } from '../../src/backtest/result.js';
import { BROWSER_START_MS, chromiumMissing, launchBrowser } from '../support/backtest/chromium.js';
import { reapWhenTestEnds } from '../support/child-reaper.js';
import { inBatches, runTrader, type TraderRun } from '../support/http/run-trader.js';

const THROWS = 'test/support/backtest/strategies/throws.ts';
const DENIED = 'test/support/backtest/strategies/denied.ts';
let folder: string;
const runs = new Map<string, TraderRun>();
const run = (name: string): TraderRun => runs.get(name)!;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'backtest-cli-'));
  await writeFile(
    join(folder, 'AAPL.US.csv'),
    'date,open,high,low,close,volume\n2024-01-02,1,2,0.5,1.5,100\n2024-01-03,1,0.5,2,1,100\n2024-01-04,1,2,0.5,1.5,100\n',
  );
  // Two symbols' files (the bundled history under two names) for a strategy that reads one.
  const bundled = (await readFile('backtest-data/SPX.US.csv', 'utf8')).split('\n').slice(0, 400).join('\n');
  await mkdir(join(folder, 'two'));
  await writeFile(join(folder, 'two', 'SPX.US.csv'), bundled);
  await writeFile(join(folder, 'two', 'QQQ.US.csv'), bundled);
  await writeFile(join(folder, 'SPY.csv'), bundled);
  // Day rows written as UTC midnights: in New York, the evening before (a Sunday for a Monday).
  await mkdir(join(folder, 'utc'));
  await writeFile(
    join(folder, 'utc', 'SPX.US.csv'),
    `date,open,high,low,close,volume\n${['2024-01-08', '2024-01-09', '2024-01-10'].map((date) => `${date}T00:00:00Z,10,11,9,10,100`).join('\n')}\n`,
  );
  await mkdir(join(folder, 'stale'));
  // A holiday row of volume 0 repeating the last close, as some exports write them.
  await writeFile(
    join(folder, 'stale', 'SPX.US.csv'),
    'date,open,high,low,close,volume\n2024-01-08,10,11,9,10,100\n2024-01-09,10,10,10,10,0\n2024-01-10,10,11,9,10,100\n',
  );
  const cases: Record<string, readonly string[]> = {
    summary: ['backtest', 'strategies/sma-crossover.ts'],
    codeNamed: ['backtest', 'strategies/sma-crossover.ts', '--data', join(folder, 'SPY.csv'), '--symbols', 'QQQ.US', '--quiet'],
    codeNamedSame: ['backtest', 'strategies/sma-crossover.ts', '--data', join(folder, 'SPY.csv'), '--symbols', 'SPY.US', '--quiet'],
    badSymbol: ['backtest', 'strategies/sma-crossover.ts', '--symbols', 'SPY'],
    unnamedForTwo: ['backtest', 'strategies/sma-crossover.ts', '--data', join(folder, 'SPY.csv'), '--symbols', 'SPY.US,QQQ.US'],
    bareJson: ['backtest', 'strategies/sma-crossover.ts', '--json'],
    sizesInWarmUp: [
      'backtest',
      'test/support/backtest/strategies/targets-always.ts',
      '--from',
      '2015-03-02',
      '--to',
      '2015-06-30',
      '--json',
      join(folder, 'sizes-in-warm-up.json'),
      '--quiet',
    ],
    twoData: ['backtest', 'strategies/sma-crossover.ts', '--data', 'a.csv', '--data', 'b.csv'],
    oneOfTwo: ['backtest', 'strategies/sma-crossover.ts', '--data', join(folder, 'two'), '--symbols', 'SPX.US,QQQ.US', '--quiet'],
    jsonStdout: [
      'backtest',
      'strategies/sma-crossover.ts',
      '--param',
      'fast=5',
      '--param',
      'slow=20',
      '--commission',
      '0.001',
      '--risk-free-rate',
      '0.02',
      '--json',
      '-',
    ],
    files: [
      'backtest',
      'strategies/sma-crossover.ts',
      '--report',
      join(folder, 'report.html'),
      '--json',
      join(folder, 'result.json'),
      '--quiet',
      '--timings',
    ],
    badData: ['backtest', 'strategies/sma-crossover.ts', '--data', join(folder, 'AAPL.US.csv')],
    skipBadData: ['backtest', 'strategies/sma-crossover.ts', '--data', join(folder, 'AAPL.US.csv'), '--on-bad-row', 'skip'],
    badFlag: ['backtest', 'strategies/sma-crossover.ts', '--fill', 'tomorrow'],
    badPeriod: ['backtest', 'strategies/sma-crossover.ts', '--period', '7m'],
    noStrategy: ['backtest', '--quiet'],
    unwritable: ['backtest', 'strategies/sma-crossover.ts', '--json', join(folder, 'missing', 'result.json')],
    overData: ['backtest', 'strategies/sma-crossover.ts', '--data', join(folder, 'AAPL.US.csv'), '--json', join(folder, 'AAPL.US.csv')],
    throws: ['backtest', THROWS, '--json', join(folder, 'failed.json')],
    denied: ['backtest', DENIED, '--json', join(folder, 'denied.json')],
    week: ['backtest', 'strategies/sma-crossover.ts', '--period', 'week', '--json', join(folder, 'week.json')],
    warns: ['backtest', 'test/support/backtest/strategies/warns.ts', '--quiet'],
    prints: ['backtest', 'test/support/backtest/strategies/prints.ts', '--json', '-'],
    utcDays: ['backtest', 'strategies/sma-crossover.ts', '--data', join(folder, 'utc'), '--quiet'],
    staleDays: ['backtest', 'strategies/sma-crossover.ts', '--data', join(folder, 'stale'), '--quiet'],
    onQuotes: ['backtest', 'test/support/backtest/strategies/on-quotes.ts', '--quiet'],
    help: ['backtest', '--help'],
    bracket: ['backtest', 'strategies/sma-bracket.ts', '--json', join(folder, 'bracket.json')],
    range: ['backtest', 'strategies/sma-crossover.ts', '--from', '2010-01-01', '--to', '2015-12-31', '--json', join(folder, 'range.json')],
    whole: ['backtest', 'strategies/sma-crossover.ts', '--json', join(folder, 'whole.json'), '--quiet'],
    badRange: ['backtest', 'strategies/sma-crossover.ts', '--from', '2015-02-30'],
    emptyRange: ['backtest', 'strategies/sma-crossover.ts', '--from', '2050-01-01'],
  };
  const results = await inBatches(
    Object.values(cases).map((args) => () => runTrader(args, {})),
    3,
  );
  Object.keys(cases).forEach((name, index) => {
    runs.set(name, results[index]!);
  });
}, 300_000);

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('trader backtest', () => {
  it('notes day bars that fall on a weekend in the market’s zone (day rows stamped at UTC midnight)', () => {
    const { code, stderr } = run('utcDays');
    expect(code).toBe(0);
    expect(stderr).toContain(
      'note: 1 of the first 3 day bars of SPX.US fall on a Saturday or Sunday in America/New_York (the first 2024-01-07)',
    );
    expect(run('summary').stderr).not.toContain('Saturday or Sunday');
  });

  it('notes day bars of volume 0 among bars with volume (stale holiday rows fill whole orders)', () => {
    const { code, stderr } = run('staleDays');
    expect(code).toBe(0);
    expect(stderr).toContain('note: 1 bar of volume 0 among bars with volume, in SPX.US (the first 2024-01-09): ');
    expect(run('summary').stderr).not.toContain('volume 0');
  });

  it("sends a strategy's console.log to stderr while stdout carries the JSON", () => {
    const { code, stdout, stderr } = run('prints');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ strategy: 'prints', status: 'completed' });
    expect(stderr).toContain('first close 1455.219971');
  });

  it('prints a summary of sma-crossover on the bundled S&P 500 history', () => {
    const { code, stdout, stderr } = run('summary');

    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('Backtest sma-crossover  SPX.US  day  2000-01-03 → 2020-04-17');
    expect(stdout).toMatch(/Final equity\s+[\d,.]+ USD/);
    expect(stdout).toMatch(/Intents \d+ · orders \d+ · fills \d+ · denied 0/);
  });

  it('finishes quietly when the reader of --json - goes away (`| head`), writing its other files and exiting 0', async () => {
    const report = join(folder, 'head-report.html');
    const child = spawn(process.execPath, ['bin/trader.js', 'backtest', 'strategies/sma-crossover.ts', '--json', '-', '--report', report], {
      cwd: new URL('../../', import.meta.url),
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    reapWhenTestEnds(child);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    // The result is ~90 KB, more than a pipe holds: closing after the first piece leaves the rest unwritable.
    child.stdout.once('data', () => child.stdout.destroy());
    const [code] = (await once(child, 'close')) as [number | null];
    expect(stderr).not.toMatch(/EPIPE|error/);
    expect(code).toBe(0);
    expect((await stat(report)).size).toBeGreaterThan(10_000);
  }, 60_000);

  it('prints only the JSON result on stdout with --json -, with the params, costs and risk-free rate it ran with', () => {
    const { code, stdout } = run('jsonStdout');

    expect(code).toBe(0);
    const result = backtestResultSchema.parse(JSON.parse(stdout));
    expect(result.metrics.bars).toBe(5105);
    expect(result.metrics.fills).toBeGreaterThan(0);
    expect(result.metrics.totalCommission).toBeGreaterThan(0);
    expect(result.settings).toMatchObject({
      'param.fast': 5,
      'param.slow': 20,
      commission: 0.001,
      fill: 'next-open',
      cash: '1000000',
      riskFreeRate: 0.02,
    });
    expect(result.metrics.riskFreeRate).toBe(0.02);
    expect(result.fills[0]!.commission).not.toBe('0');
    // The strategy tags its entries and exits: the tags reach every fill and trade.
    expect(new Set(result.fills.map((fill) => `${fill.side}:${fill.tag}`))).toEqual(new Set(['Buy:golden-cross', 'Sell:death-cross']));
    expect(result.trades[0]).toMatchObject({ entryTag: 'golden-cross', exitTag: 'death-cross' });
  });

  it(
    'writes the JSON result and a self-contained report page that renders in headless Chromium, and the phase timings asked for',
    async () => {
      const { code, stdout, stderr } = run('files');
      expect(code).toBe(0);
      expect(stdout).toBe('');
      expect(stderr).toContain('wrote');
      // --timings: each phase in wall and CPU time, the memory after each, and the peak.
      expect(stderr).toMatch(/^timings: start-up \d+ ms · load \d+ ms · walk \d+ ms · write \d+ ms · total \d+ ms · peak RSS \d+ MB$/m);
      expect(stderr).toMatch(/^cpu: start-up \d+ ms · load \d+ ms · walk \d+ ms · write \d+ ms · total \d+ ms$/m);
      expect(stderr).toMatch(/^RSS after: start-up \d+ MB · load \d+ MB · walk \d+ MB · write \d+ MB$/m);
      const result = backtestResultSchema.parse(JSON.parse(await readFile(join(folder, 'result.json'), 'utf8')));
      expect(result.strategy).toBe('sma-crossover');
      const html = await readFile(join(folder, 'report.html'), 'utf8');
      expect(html).toContain('<title>Backtest · sma-crossover</title>');
      if (chromiumMissing !== undefined) return;

      const browser = await launchBrowser();
      try {
        const { page, requests, errors } = await browser.open(join(folder, 'report.html'));
        await page.waitForSelector('canvas');
        expect(errors).toEqual([]);
        expect(requests).toHaveLength(1);
        expect(await page.locator('canvas').count()).toBeGreaterThan(0);
      } finally {
        await browser.close();
      }
    },
    BROWSER_START_MS,
  );

  it("stops on bad rows with each one's file, line and reason, exit status 2 (bad input)", () => {
    const { code, stderr, stdout } = run('badData');

    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('1 bad row in candle data (use --on-bad-row skip to drop them)');
    expect(stderr).toContain(`${join(folder, 'AAPL.US.csv')}:3: high 0.5 is below low 2`);
  });

  it('skips bad rows when asked, saying which', () => {
    const { code, stderr, stdout } = run('skipBadData');

    expect(code).toBe(0);
    expect(stderr).toContain(`warning: skipped 1 bad row:\n  ${join(folder, 'AAPL.US.csv')}:3: high 0.5 is below low 2`);
    expect(stdout).toContain('Backtest sma-crossover  AAPL.US  day');
  });

  it("fails a run whose strategy throws: the line in the strategy's file and the bar, in the summary, the JSON and the exit status", async () => {
    const { code, stdout, stderr } = run('throws');
    const line = (await readFile(THROWS, 'utf8')).split('\n').findIndex((text) => text.includes('throw new Error')) + 1;
    const failure = `strategy throws (${THROWS}) failed at ${THROWS}:${line}:`;

    expect(code).toBe(1);
    expect(stderr).toMatch(
      new RegExp(`^error: ${escapeRegExp(failure)}\\d+, on the SPX\\.US day bar of 2000-05-24 \\(index 99\\): boom at bar 100$`, 'm'),
    );
    expect(stdout).toContain('Backtest throws  SPX.US  day  2000-01-03 → 2000-05-23');
    expect(stdout).toContain(`FAILED: ${failure}`);
    const result = backtestResultSchema.parse(JSON.parse(await readFile(join(folder, 'failed.json'), 'utf8')));
    expect(result.status).toBe('failed');
    expect(result.failures).toEqual([
      {
        strategy: 'throws',
        source: THROWS,
        error: 'boom at bar 100',
        location: { file: THROWS, line, column: expect.any(Number) },
        bar: { symbol: 'SPX.US', period: 'day', time: '2000-05-24T00:00:00-04:00', index: 99 },
      },
    ]);
    expect(result.metrics.bars).toBe(99);
  });

  it('lists denials in the JSON and counts intents, orders and fills; the summary shows the reasons by code', async () => {
    const { code, stdout } = run('denied');

    expect(code).toBe(0);
    const result = backtestResultSchema.parse(JSON.parse(await readFile(join(folder, 'denied.json'), 'utf8')));
    expect(result.counts).toEqual({ intents: 3, orders: 0, fills: 0, denials: 3 });
    expect(result.denialsByCode).toEqual({ SHORT_SELLING_NOT_ALLOWED: 1, UNKNOWN_SYMBOL: 1, EXCEEDS_BUY_LIMIT: 1 });
    expect(result.denials.map((denial) => [denial.time, denial.strategy, denial.code, denial.intent])).toEqual([
      [
        '2000-01-07T16:00:00-05:00',
        'denied',
        'SHORT_SELLING_NOT_ALLOWED',
        { kind: 'order', symbol: 'SPX.US', side: 'Sell', quantity: '10' },
      ],
      ['2000-01-10T16:00:00-05:00', 'denied', 'UNKNOWN_SYMBOL', { kind: 'order', symbol: 'NOPE.US', side: 'Buy', quantity: '10' }],
      ['2000-01-11T16:00:00-05:00', 'denied', 'EXCEEDS_BUY_LIMIT', { kind: 'order', symbol: 'SPX.US', side: 'Buy', quantity: '1000000' }],
    ]);
    expect(result.denials[0]!.figures).toEqual({ quantity: '10', position: '0', sellable: '0' });
    expect(stdout).toContain('Intents 3 · orders 0 · fills 0 · denied 3');
    expect(stdout).toMatch(
      /SHORT_SELLING_NOT_ALLOWED ×1 +2000-01-07 denied: sell 10 SPX\.US: no position, and short selling is not allowed/,
    );
    expect(stdout).toMatch(
      /UNKNOWN_SYMBOL ×1 +2000-01-10 denied: the broker does not know NOPE\.US: unknown symbol: no market data for NOPE\.US yet/,
    );
  });

  it('labels a run on week bars built from daily data as week, in the header and the JSON', async () => {
    const { code, stdout } = run('week');

    expect(code).toBe(0);
    expect(stdout).toContain('Backtest sma-crossover  SPX.US  week bars (built from day data)  2000-01-03 → 2020-04-17');
    const result = backtestResultSchema.parse(JSON.parse(await readFile(join(folder, 'week.json'), 'utf8')));
    expect([result.period, result.dataPeriod]).toEqual(['week', 'day']);
  });

  it("tells a strategy's warnings without --verbose, once each with a count, after the run", () => {
    const { code, stderr } = run('warns');

    expect(code).toBe(0);
    expect(stderr.trim()).toMatch(/^warning: warns: close above 1400 \(\d+ times; first: symbol=SPX\.US close=1455\.219971\)$/);
  });

  it('warns that a strategy asking for quotes gets none in a backtest, rather than ending quietly with no decisions', () => {
    const { code, stderr } = run('onQuotes');

    expect(code).toBe(0);
    expect(stderr.trim()).toBe(
      'warning: on-quotes asked for quotes of SPX.US (ctx.quotes()), which a backtest does not have (it has candles only): what the strategy would decide on quotes is not in this result (trader run --paper replays quotes)',
    );
    expect(run('warns').stderr).not.toContain('asked for quotes');
  });

  it('tags the trades of a strategy with exits: stop-loss, take-profit and trailing-stop exits told from signal exits', async () => {
    const { code, stdout } = run('bracket');

    expect(code).toBe(0);
    const result = backtestResultSchema.parse(JSON.parse(await readFile(join(folder, 'bracket.json'), 'utf8')));
    expect(new Set(result.trades.map((trade) => trade.exitTag))).toEqual(
      new Set(['below-sma', 'stop-loss', 'take-profit', 'trailing-stop']),
    );
    expect(result.fills.filter((fill) => fill.side === 'Buy').every((fill) => fill.tag === 'trend-entry')).toBe(true);
    expect(stdout).toMatch(/Exits by tag:\n( {2}.+ trades?, .+\n){4}/);
  });

  it('runs --from/--to on those dates only, warmed up on the bars before: it trades on the dates the whole run trades', async () => {
    expect(run('range').code).toBe(0);
    const range = backtestResultSchema.parse(JSON.parse(await readFile(join(folder, 'range.json'), 'utf8')));
    const whole = backtestResultSchema.parse(JSON.parse(await readFile(join(folder, 'whole.json'), 'utf8')));
    expect([range.start?.slice(0, 10), range.end?.slice(0, 10)]).toEqual(['2010-01-04', '2015-12-31']);
    expect([range.settings.from, range.settings.to]).toEqual(['2010-01-01', '2015-12-31']);
    // The whole run holds a position into 2010 that the ranged run never opened: compare from the first entry on.
    const inRange = whole.fills.filter((fill) => fill.time >= '2010-01-01' && fill.time < '2016-01-01');
    const firstBuy = inRange.findIndex((fill) => fill.side === 'Buy');
    expect(range.fills.map((fill) => [fill.time, fill.side, fill.price])).toEqual(
      inRange.slice(firstBuy).map((fill) => [fill.time, fill.side, fill.price]),
    );
  });

  it('refuses a date that is not one, or a range with no bars, exit status 2', () => {
    expect(run('badRange').code).toBe(2);
    expect(run('badRange').stderr).toMatch(/--from: a date like 2015-01-31, got 2015-02-30/);
    expect(run('emptyRange').code).toBe(2);
    expect(run('emptyRange').stderr).toMatch(/no bars from 2050-01-01 to the end/);
  });

  it('refuses a --json file it could not write before running, naming the flag and the missing folder, exit status 2', () => {
    const { code, stdout, stderr } = run('unwritable');
    expect(code).toBe(2);
    expect(stderr.trim()).toBe(
      `error: --json ${join(folder, 'missing', 'result.json')}: the folder ${join(folder, 'missing')} does not exist`,
    );
    expect(stdout).toBe('');
  });

  it('refuses to write its result over the data it reads, exit status 2, leaving the data as it was', async () => {
    const { code, stderr } = run('overData');
    expect(code).toBe(2);
    expect(stderr.trim()).toBe(`error: --json ${join(folder, 'AAPL.US.csv')}: is the data, which this run reads`);
    expect(await readFile(join(folder, 'AAPL.US.csv'), 'utf8')).toMatch(/^date,open,high,low,close,volume\n2024-01-02,/);
  });

  it('refuses a bad flag with one line naming it, exit status 2', () => {
    const { code, stderr } = run('badFlag');

    expect(code).toBe(2);
    expect(stderr.trim()).toBe('error: --fill: "tomorrow" is not one of next-open, close');
    // The flag named, not the strategy file the period would have applied to.
    expect(run('badPeriod').code).toBe(2);
    expect(run('badPeriod').stderr).toMatch(/^error: --period: period "7m" is not one of 1m, /);
    expect(run('noStrategy')).toMatchObject({
      code: 2,
      stderr: 'error: not enough arguments for trader backtest <strategy>\nRun with --help for usage.\n',
    });
  });

  it('blames a bad --symbols on the flag, and a file given for two symbols on the file, exit status 2', () => {
    expect(run('badSymbol')).toMatchObject({
      code: 2,
      stderr: 'error: --symbols: symbol "SPY" must look like CODE.MARKET (e.g. 700.HK, AAPL.US)\n',
    });
    expect(run('unnamedForTwo').code).toBe(2);
    expect(run('unnamedForTwo').stderr).toContain(
      "SPY.csv: one file holds one symbol's bars, and its name is not a symbol: give --symbols one symbol for it, or a folder of SYMBOL.csv files for SPY.US, QQQ.US",
    );
  });

  it('sizes a decision made on a warm-up bar (dropped) instead of failing for want of a price, and trades from --from', async () => {
    expect(run('sizesInWarmUp').code).toBe(0);
    const result = JSON.parse(await readFile(join(folder, 'sizes-in-warm-up.json'), 'utf8'));
    expect(result.failures).toEqual([]);
    expect(result.fills.length).toBeGreaterThan(0);
    expect(result.fills[0].time >= '2015-03-02').toBe(true);
  });

  it('says an option at the end of the line needs its value, exit status 2 as for any usage error', () => {
    expect(run('bareJson')).toMatchObject({ code: 2, stderr: 'error: --json needs a value\nRun with --help for usage.\n' });
  });

  it('refuses --data given twice, naming both, exit status 2', () => {
    expect(run('twoData')).toMatchObject({ code: 2, stderr: 'error: --data given 2 times (a.csv, b.csv): give it once\n' });
  });

  it('says when a file named by another code is read as the symbol --symbols gives', () => {
    expect(run('codeNamed')).toMatchObject({
      code: 0,
      stderr: "note: reading SPY.csv as QQQ.US (--symbols): its name is not that symbol's\n",
    });
    expect(run('codeNamedSame')).toMatchObject({ code: 0, stderr: '' });
  });

  it('warns when a strategy never read the candles of a symbol the data holds, naming the one it read', () => {
    expect(run('oneOfTwo').code).toBe(0);
    expect(run('oneOfTwo').stderr).toContain(
      "warning: sma-crossover never read the candles of QQQ.US, which the data holds: ctx.candles() without a symbol reads only the strategy's first symbol, SPX.US (the first of --symbols, or of the data's files)\n",
    );
    expect(run('summary').stderr).not.toMatch(/never read the candles/);
  });

  it('explains itself with --help, with examples', () => {
    const { code, stdout } = run('help');

    expect(code).toBe(0);
    for (const flag of [
      '--data',
      '--symbols',
      '--period',
      '--param',
      '--cash',
      '--commission',
      '--slippage',
      '--fees',
      '--fill',
      '--intrabar',
      '--risk',
      '--on-bad-row',
      '--json',
      '--report',
      '--quiet',
    ]) {
      expect(stdout).toContain(flag);
    }
    expect(stdout).toContain('Examples:');
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
