// Candle data through the real binary: bad files are bad input (exit status 2, naming file, line and what to
// do), `trader data convert` makes Parquet files that backtest to the same result as their CSV files, and
// `trader data fetch --format parquet` writes and resumes a Parquet file (against local fake servers).
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSymbol } from '../../src/domain/symbol.js';
import { readCandleParquet } from '../../src/feeds/history/candle-parquet.js';
import { TEST_SECRET, TEST_TOKEN } from '../support/http/client-harness.js';
import { ok, startFakeOpenApi, type FakeOpenApiServer } from '../support/http/fake-openapi-server.js';
import { inBatches, runTrader, type TraderRun } from '../support/http/run-trader.js';
import { spawnTrader } from '../support/socket/spawn-trader.js';
import { dailyCandles } from '../support/socket/quote-fixtures.js';
import { QuoteTestService } from '../support/socket/quote-test-service.js';
import { SocketTestServer } from '../support/socket/socket-test-server.js';

const HEADER = 'date,open,high,low,close,volume\n';
let folder: string;
const runs = new Map<string, TraderRun>();
const run = (name: string): TraderRun => runs.get(name)!;
const backtest = (data: string, ...more: string[]): string[] => ['backtest', 'strategies/sma-crossover.ts', '--data', data, ...more];
/** Buys AAPL.US every day, so a position is held on the ex-dates of its dividends and splits. */
const dailyBuys = (data: string): string[] => [
  'backtest',
  'strategies/dca.ts',
  '--data',
  data,
  '--symbols',
  'AAPL.US',
  '--param',
  'everyDays=1',
  '--json',
  '-',
];

/** A run's JSON result, apart from the data path it names. */
function resultOf(name: string): unknown {
  expect(run(name)).toMatchObject({ code: 0 });
  const { settings, ...rest } = JSON.parse(run(name).stdout) as { settings: Record<string, unknown> };
  return { ...rest, settings: { ...settings, data: undefined } };
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'data-cli-'));
  const days = Array.from({ length: 40 }, (_, index) => new Date(Date.UTC(2024, 0, 2 + index)).toISOString().slice(0, 10));
  const rows = days.map((date, index) => `${date},${10 + index},${11 + index},${9 + index},${10.5 + index},100`);
  await mkdir(join(folder, 'bad'));
  await writeFile(join(folder, 'bad', 'MALFORMED.US.csv'), `${HEADER}${rows[0]}\n2024-01-03,ten,11,9,10,100\n`);
  await writeFile(join(folder, 'bad', 'NEWEST.US.csv'), `${HEADER}${[...rows].reverse().join('\n')}\n`);
  await writeFile(join(folder, 'bad', 'EMPTY.US.csv'), HEADER);
  await writeFile(join(folder, 'bad', 'TWICE.US.csv'), `${HEADER}${rows[0]}\n${rows[1]}\n${rows[1]}\n`);
  await mkdir(join(folder, 'csv'));
  await copyFile('backtest-data/SPX.US.csv', join(folder, 'csv', 'SPX.US.csv'));
  await mkdir(join(folder, 'codes'));
  await copyFile('backtest-data/SPX.US.csv', join(folder, 'codes', 'SPX.csv'));
  // Twelve US trading days at 10, then 5 after a 2-for-1 split on the 16th; a dividend of 1 a share on the 10th.
  const aapl = ['02', '03', '04', '05', '08', '09', '10', '11', '12', '16', '17', '18'].map((day) => {
    const price = day >= '16' ? 5 : 10;
    return {
      row: `2024-01-${day},${price},${price},${price},${price},1000000`,
      dividend: day === '10' ? 1 : 0,
      split: day === '16' ? 2 : 0,
    };
  });
  await mkdir(join(folder, 'yahoo'));
  await writeFile(
    join(folder, 'yahoo', 'AAPL.US.csv'),
    `Date,Open,High,Low,Close,Volume,Dividends,Stock Splits\n${aapl.map((day) => `${day.row},${day.dividend},${day.split}\n`).join('')}`,
  );
  // As `trader data fetch` leaves a folder: candles, and the securities and actions files beside them. Lots of
  // 40 refuse the 100 shares bought at 10 and take the 200 at 5; the dividend is paid on the 200 held.
  await mkdir(join(folder, 'from-fetch'));
  await writeFile(join(folder, 'from-fetch', 'AAPL.US.csv'), `${HEADER}${aapl.map((day) => `${day.row}\n`).join('')}`);
  await writeFile(
    join(folder, 'from-fetch', 'securities.csv'),
    'symbol,name,currency,lot_size,tick,fractional_shares\nAAPL.US,Apple,USD,40,,\n',
  );
  await writeFile(join(folder, 'from-fetch', 'actions.csv'), 'symbol,date,kind,value\nAAPL.US,2024-01-17,dividend,0.5\n');
  const converts: Record<string, readonly string[]> = {
    convert: ['data', 'convert', join(folder, 'csv'), '--out', join(folder, 'parquet')],
    convertYahoo: ['data', 'convert', join(folder, 'yahoo'), '--out', join(folder, 'yahoo-parquet'), '--json'],
    convertFetched: ['data', 'convert', join(folder, 'from-fetch'), '--out', join(folder, 'from-fetch-parquet')],
  };
  const converted = await inBatches(
    Object.values(converts).map((args) => () => runTrader(args, {})),
    3,
  );
  for (const [index, name] of Object.keys(converts).entries()) runs.set(name, converted[index]!);
  const cases: Record<string, readonly string[]> = {
    malformed: backtest(join(folder, 'bad', 'MALFORMED.US.csv')),
    unsorted: backtest(join(folder, 'bad', 'NEWEST.US.csv'), '--on-bad-row', 'skip'),
    empty: backtest(join(folder, 'bad', 'EMPTY.US.csv')),
    duplicate: backtest(join(folder, 'bad', 'TWICE.US.csv')),
    fromCsv: backtest(join(folder, 'csv', 'SPX.US.csv'), '--json', '-'),
    fromParquet: backtest(join(folder, 'parquet', 'SPX.US.parquet'), '--json', '-'),
    fromParquetFolder: [...backtest(join(folder, 'parquet'), '--json', '-'), '--symbols', 'SPX.US'],
    convertHelp: ['data', 'convert', '--help'],
    fromCodeNamed: [...backtest(join(folder, 'codes'), '--json', '-'), '--symbols', 'SPX.US'],
    convertCodesWithoutMarket: ['data', 'convert', join(folder, 'codes'), '--out', join(folder, 'codes-parquet')],
    convertCodes: ['data', 'convert', join(folder, 'codes'), '--market', 'us', '--out', join(folder, 'codes-parquet')],
    convertIntoFile: ['data', 'convert', join(folder, 'codes'), '--market', 'us', '--out', join(folder, 'codes', 'SPX.csv')],
    yahooCsv: dailyBuys(join(folder, 'yahoo')),
    yahooParquet: dailyBuys(join(folder, 'yahoo-parquet')),
    fetchedCsv: dailyBuys(join(folder, 'from-fetch')),
    fetchedParquet: dailyBuys(join(folder, 'from-fetch-parquet')),
  };
  const results = await inBatches(
    Object.values(cases).map((args) => () => runTrader(args, {})),
    3,
  );
  for (const [index, name] of Object.keys(cases).entries()) runs.set(name, results[index]!);
}, 180_000);

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('bad candle files', () => {
  it('a malformed row: exit status 2, naming the file, line and field', () => {
    const { code, stderr } = run('malformed');
    expect(code).toBe(2);
    expect(stderr).toContain(`${join(folder, 'bad', 'MALFORMED.US.csv')}:3: unparseable open "ten"`);
  });

  it('a file in reverse time order: exit status 2 even with --on-bad-row skip, advising to sort it', () => {
    const { code, stderr } = run('unsorted');
    expect(code).toBe(2);
    expect(stderr).toContain(
      `error: ${join(folder, 'bad', 'NEWEST.US.csv')}: the rows are not in time order (39 of 40 rows are earlier than a row above them); sort the file by time`,
    );
    expect(stderr).not.toContain('skipped');
  });

  it('a file with no rows: exit status 2, naming it', () => {
    const { code, stderr } = run('empty');
    expect(code).toBe(2);
    expect(stderr).toContain(`error: the candle data has no bars (${join(folder, 'bad', 'EMPTY.US.csv')}: no rows after the header)`);
  });

  it('a duplicate row: exit status 2, naming both lines', () => {
    const { code, stderr } = run('duplicate');
    expect(code).toBe(2);
    expect(stderr).toContain(`${join(folder, 'bad', 'TWICE.US.csv')}:4: duplicate bar: same time as line 3`);
  });
});

describe('trader data convert', () => {
  it('makes Parquet files that backtest to the same result as the CSV files, from a file or a folder', () => {
    expect(run('convert').code).toBe(0);
    expect(run('convert').stderr).toContain(
      `data convert: ${join(folder, 'csv', 'SPX.US.csv')} → ${join(folder, 'parquet', 'SPX.US.parquet')}: 5105 day bars`,
    );
    const [csv, parquet, parquetFolder] = (['fromCsv', 'fromParquet', 'fromParquetFolder'] as const).map((name) => {
      expect(run(name).code).toBe(0);
      const { settings, ...rest } = JSON.parse(run(name).stdout) as { settings: Record<string, unknown> };
      return { ...rest, settings: { ...settings, data: undefined } };
    });
    expect(parquet).toEqual(csv);
    expect(parquetFolder).toEqual(csv);
  });

  it('reads a folder of files named by their code (SPX.csv) for --symbols SPX.US, and converts them with --market', () => {
    const [csv, codes] = (['fromCsv', 'fromCodeNamed'] as const).map((name) => {
      expect(run(name).code).toBe(0);
      const { settings, ...rest } = JSON.parse(run(name).stdout) as { settings: Record<string, unknown> };
      return { ...rest, settings: { ...settings, data: undefined } };
    });
    expect(codes).toEqual(csv);
    expect(run('convertCodesWithoutMarket').code).toBe(2);
    expect(run('convertCodesWithoutMarket').stderr).toContain(
      `${join(folder, 'codes', 'SPX.csv')}: the file name is not a symbol (like 700.HK.csv); name it with --symbol, or give the market of files named by their code with --market`,
    );
    expect(run('convertCodes').code).toBe(0);
    expect(run('convertCodes').stderr).toContain(`→ ${join(folder, 'codes-parquet', 'SPX.US.parquet')}: 5105 day bars`);
  });

  it('keeps the Dividends and Stock Splits columns in the actions.csv beside the Parquet files, so they backtest the same', async () => {
    expect(run('convertYahoo').code).toBe(0);
    const actionsFile = join(folder, 'yahoo-parquet', 'actions.csv');
    expect(JSON.parse(run('convertYahoo').stdout)).toEqual([
      expect.objectContaining({ output: join(folder, 'yahoo-parquet', 'AAPL.US.parquet'), actions: 2, actionsFile }),
    ]);
    expect(run('convertYahoo').stderr).toContain(
      `${actionsFile}: 2 dividends and splits added from the CSV files' Dividends and Stock Splits columns`,
    );
    expect(await readFile(actionsFile, 'utf8')).toBe('symbol,date,kind,value\nAAPL.US,2024-01-10,dividend,1\nAAPL.US,2024-01-16,split,2\n');
    const csv = resultOf('yahooCsv');
    expect(csv).toMatchObject({ settings: { corporateActions: 2 } });
    expect(resultOf('yahooParquet')).toEqual(csv);
  });

  it('copies the securities.csv and actions.csv of a folder beside its Parquet files, so they backtest the same', async () => {
    expect(run('convertFetched')).toMatchObject({ code: 0 });
    for (const name of ['securities.csv', 'actions.csv'])
      expect(await readFile(join(folder, 'from-fetch-parquet', name), 'utf8')).toBe(
        await readFile(join(folder, 'from-fetch', name), 'utf8'),
      );
    const csv = resultOf('fetchedCsv') as { fills: { quantity: string }[] };
    expect(csv).toMatchObject({ settings: { corporateActions: 1 } });
    // dca buys whole lots: the lots of 40 of the securities file (100 shares a day of 1 at 10 without it).
    expect(csv.fills.map((fill) => Number(fill.quantity) % 40)).toEqual(csv.fills.map(() => 0));
    expect(csv.fills.length).toBeGreaterThan(0);
    expect(resultOf('fetchedParquet')).toEqual(csv);
  });

  it('refuses an --out that is a file before converting anything, exit status 2', () => {
    expect(run('convertIntoFile')).toMatchObject({
      code: 2,
      stderr: `error: --out ${join(folder, 'codes', 'SPX.csv')}: is a file, not a folder\n`,
    });
  });

  it('explains itself with --help, with examples', () => {
    const { code, stdout } = run('convertHelp');
    expect(code).toBe(0);
    expect(stdout).toContain('--out');
    expect(stdout).toContain('Examples:');
  });
});

describe('trader data fetch --format parquet', () => {
  let http: FakeOpenApiServer;
  let socket: SocketTestServer;

  beforeAll(async () => {
    http = await startFakeOpenApi({
      appSecret: TEST_SECRET,
      accessToken: TEST_TOKEN,
      routes: { 'GET /v1/socket/token': () => ok({ otp: 'otp-data', limit: 1, online: 0 }) },
    });
    socket = await SocketTestServer.start({ acceptOtp: (otp) => otp === 'otp-data' });
    new QuoteTestService(socket, { candles: { '700.HK': dailyCandles('2024-01-01', 7) }, pageSize: 2 });
  });

  afterAll(async () => {
    await socket.stop();
    await http.close();
  });

  it('writes a Parquet file, then resumes it where it ends', async () => {
    const env = {
      LONGPORT_APP_KEY: 'data-e2e',
      LONGPORT_APP_SECRET: TEST_SECRET,
      LONGPORT_ACCESS_TOKEN: TEST_TOKEN,
      LONGPORT_HTTP_URL: http.url,
      LONGPORT_QUOTE_WS_URL: socket.url,
      LONGPORT_TRADE_WS_URL: socket.url,
    };
    const out = join(folder, 'fetched');
    const fetch = (to: string, ...more: string[]) =>
      runTrader(['data', 'fetch', '700.HK', '--from', '2024-01-01', '--to', to, '--out', out, '--format', 'parquet', ...more], env);

    const first = await fetch('2024-01-04');
    expect(first.code).toBe(0);
    const second = await fetch('2024-01-07', '--json');
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('resuming');
    expect(JSON.parse(second.stdout)).toEqual([
      { symbol: '700.HK', file: join(out, '700.HK.parquet'), added: 3, resumedFrom: '2024-01-05' },
    ]);

    const file = join(out, '700.HK.parquet');
    const { columns } = await readCandleParquet(await readFile(file), {
      symbol: parseSymbol('700.HK'),
      source: file,
      timeZone: 'Asia/Hong_Kong',
    });
    const expected = dailyCandles('2024-01-01', 7);
    expect(Array.from(columns.time)).toEqual(expected.map((candle) => candle.time));
    expect(Array.from(columns.close)).toEqual(expected.map((candle) => candle.close));
    expect(Array.from(columns.turnover!)).toEqual(expected.map((candle) => candle.turnover));
    // The static info (cmd 10) is saved beside the candles, for the backtest venue's lot and name.
    expect(await readFile(join(out, 'securities.csv'), 'utf8')).toBe(
      'symbol,name,currency,lot_size,tick,fractional_shares\n700.HK,700.HK Inc,HKD,100,,\n',
    );
  }, 120_000); // two fetch processes, each taking ~10 s to start and sign in on the loaded 2-core machine
});

describe('trader data fetch, interrupted', () => {
  let http: FakeOpenApiServer;
  let socket: SocketTestServer;
  let service: QuoteTestService;

  beforeAll(async () => {
    http = await startFakeOpenApi({
      appSecret: TEST_SECRET,
      accessToken: TEST_TOKEN,
      routes: { 'GET /v1/socket/token': () => ok({ otp: 'otp-stop', limit: 1, online: 0 }) },
    });
    socket = await SocketTestServer.start({ acceptOtp: (otp) => otp === 'otp-stop' });
    // Two pages of two bars, then a page that never comes.
    service = new QuoteTestService(socket, { candles: { '700.HK': dailyCandles('2024-01-01', 7) }, pageSize: 2, holdPagesAfter: 2 });
  });

  afterAll(async () => {
    await socket.stop();
    await http.close();
  });

  it('stops at Ctrl-C without waiting for the page in flight, writes the Parquet file with the bars it got, says so, exit 130', async () => {
    const out = join(folder, 'interrupted');
    const fetch = spawnTrader(
      ['data', 'fetch', '700.HK', '--from', '2024-01-01', '--to', '2024-01-07', '--out', out, '--format', 'parquet', '--json'],
      {
        LONGPORT_APP_KEY: 'data-stop',
        LONGPORT_APP_SECRET: TEST_SECRET,
        LONGPORT_ACCESS_TOKEN: TEST_TOKEN,
        LONGPORT_HTTP_URL: http.url,
        LONGPORT_QUOTE_WS_URL: socket.url,
        LONGPORT_TRADE_WS_URL: socket.url,
      },
    );
    await service.pageHeld;

    expect(await fetch.interrupt()).toBe(130);
    expect(JSON.parse(fetch.lines.join('\n'))).toEqual([
      { symbol: '700.HK', file: join(out, '700.HK.parquet'), added: 4, resumedFrom: '2024-01-01' },
    ]);
    expect(fetch.stderr()).toContain('interrupted: the bars fetched are kept; run the same command again to resume\n');
    const file = join(out, '700.HK.parquet');
    const { columns } = await readCandleParquet(await readFile(file), {
      symbol: parseSymbol('700.HK'),
      source: file,
      timeZone: 'Asia/Hong_Kong',
    });
    expect(Array.from(columns.time)).toEqual(
      dailyCandles('2024-01-01', 7)
        .slice(0, 4)
        .map((candle) => candle.time),
    );
  }, 60_000);
});
