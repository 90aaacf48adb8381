// The market commands through the real binary (node bin/trader.js) against real local servers: the OpenAPI
// HTTP fake (signatures checked) for the one-time token, and the binary WebSocket protocol for the rest.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUOTE_COMMANDS } from '../../src/openapi/socket/commands.js';
import { messages } from '../../src/openapi/socket/messages.js';
import { TEST_SECRET, TEST_TOKEN } from '../support/http/client-harness.js';
import { ok, startFakeOpenApi, type FakeOpenApiServer } from '../support/http/fake-openapi-server.js';
import { runTrader } from '../support/http/run-trader.js';
import { dailyCandles, HK, quoteOf } from '../support/socket/quote-fixtures.js';
import { QuoteTestService } from '../support/socket/quote-test-service.js';
import { SocketTestServer } from '../support/socket/socket-test-server.js';
import { spawnTrader } from '../support/socket/spawn-trader.js';

let http: FakeOpenApiServer;
let socket: SocketTestServer;
let service: QuoteTestService;
let env: Record<string, string>;
let dir: string;

beforeAll(async () => {
  http = await startFakeOpenApi({
    appSecret: TEST_SECRET,
    accessToken: TEST_TOKEN,
    routes: { 'GET /v1/socket/token': () => ok({ otp: 'otp-e2e', limit: 1, online: 0 }) },
  });
  socket = await SocketTestServer.start({ acceptOtp: (otp) => otp === 'otp-e2e' });
  service = new QuoteTestService(socket, { candles: { '700.HK': dailyCandles('2024-01-01', 7) }, pageSize: 2, unknown: ['NOPE.HK'] });
  env = {
    LONGPORT_APP_KEY: 'market-e2e',
    LONGPORT_APP_SECRET: TEST_SECRET,
    LONGPORT_ACCESS_TOKEN: TEST_TOKEN,
    LONGPORT_HTTP_URL: http.url,
    LONGPORT_QUOTE_WS_URL: socket.url,
    LONGPORT_TRADE_WS_URL: socket.url,
  };
  dir = await mkdtemp(join(tmpdir(), 'market-cli-'));
});

afterAll(async () => {
  await socket.stop();
  await http.close();
  await rm(dir, { recursive: true, force: true });
});

describe('trader candles', () => {
  it('prints the latest bars as JSON after a signed token request and socket auth', async () => {
    const run = await runTrader(['candles', '700.HK', '--period', 'day', '--count', '3', '--json'], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const candles = JSON.parse(run.stdout) as { close: number; volume: number }[];
    expect(candles.map((candle) => [candle.close, candle.volume])).toEqual([
      [105.5, 5000],
      [106.5, 6000],
      [107.5, 7000],
    ]);
    expect(
      http
        .requestsBy('market-e2e')
        .filter((request) => request.path === '/v1/socket/token')
        .every((request) => request.signatureValid),
    ).toBe(true);
  });

  it('prints every bar of a date range as a table, paging history candlesticks', async () => {
    const run = await runTrader(
      ['candles', '700.HK', '--period', 'day', '--from', '2024-01-02', '--to', '2024-01-05', '--adjust', 'forward'],
      env,
    );
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n').slice(0, 3)).toEqual([
      'DATE        OPEN  HIGH  LOW  CLOSE  VOLUME  TURNOVER',
      '----------  ----  ----  ---  -----  ------  --------',
      '2024-01-02  101   103   100  102.5  2000    203000',
    ]);
    expect(run.stdout).toContain('2024-01-05  104   106   103  105.5  5000    507500');
  });

  it('refuses bad flags before connecting, naming the flag', async () => {
    const run = await runTrader(['candles', '700.HK', '--count', '5', '--from', '2024-01-01', '--to', '2024-01-02'], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('error: give either --count or --from/--to, not both\n');
  });
});

describe('trader watch', () => {
  it('streams quote and trade pushes as JSON lines until Ctrl-C', async () => {
    const watch = spawnTrader(['watch', '700.HK', '--trades'], env);
    await socket.until(() => socket.requestsFor(QUOTE_COMMANDS.subscribe).length >= 2, 15_000);
    service.pushQuote(quoteOf(HK, '388.2', 1_704_165_000_000, 1_000));
    service.pushTo(
      '700.HK',
      4,
      104,
      messages.pushTrade.encode({
        symbol: '700.HK',
        sequence: 9,
        trade: [{ price: '388.4', volume: 200, timestamp: 1_704_165_001, tradeType: '', direction: 2, tradeSession: 0 }],
      }),
      { gzip: true },
    );
    const quote = JSON.parse(await watch.waitForLine((line) => line.includes('"type":"quote"')));
    const trades = JSON.parse(await watch.waitForLine((line) => line.includes('"type":"trades"')));
    expect(quote).toMatchObject({ type: 'quote', symbol: '700.HK', lastDone: '388.2', volume: 1000, timestamp: 1_704_165_000_000 });
    expect(trades).toMatchObject({ type: 'trades', symbol: '700.HK', trades: [{ price: '388.4', volume: 200, direction: 2 }] });
    expect(await watch.interrupt()).toBe(0);
    expect(watch.stderr()).toContain('watch: connected');
  });
});

describe('trader data fetch', () => {
  it('writes the candle CSV, then resumes where the file ends', async () => {
    const first = await runTrader(
      ['data', 'fetch', '700.HK', '--period', 'day', '--from', '2024-01-01', '--to', '2024-01-04', '--out', dir],
      env,
    );
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('data fetch: 700.HK: 4 bars, through 2024-01-04');
    const second = await runTrader(
      ['data', 'fetch', '700.HK', '--period', 'day', '--from', '2024-01-01', '--to', '2024-01-07', '--out', dir, '--json'],
      env,
    );
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('resuming');
    expect(JSON.parse(second.stdout)).toEqual([{ symbol: '700.HK', file: join(dir, '700.HK.csv'), added: 3, resumedFrom: '2024-01-05' }]);
    const text = await readFile(join(dir, '700.HK.csv'), 'utf8');
    expect(text.split('\n')).toEqual([
      'date,open,high,low,close,volume,turnover',
      '2024-01-01,100,102,99,101.5,1000,101500',
      '2024-01-02,101,103,100,102.5,2000,203000',
      '2024-01-03,102,104,101,103.5,3000,304500',
      '2024-01-04,103,105,102,104.5,4000,406000',
      '2024-01-05,104,106,103,105.5,5000,507500',
      '2024-01-06,105,107,104,106.5,6000,609000',
      '2024-01-07,106,108,105,107.5,7000,710500',
      '',
    ]);
    // The folder holds the CSV now: Parquet of the same symbol would make it hold two files of it.
    const parquet = await runTrader(
      ['data', 'fetch', '700.HK', '--from', '2024-01-01', '--to', '2024-01-07', '--out', dir, '--format', 'parquet'],
      env,
    );
    expect(parquet.code).toBe(2);
    expect(parquet.stderr).toContain(
      `error: ${join(dir, '700.HK.csv')} exists: fetching 700.HK as parquet would leave two files of it in ${dir}; fetch with --format csv to extend it, or convert it first (trader data convert)`,
    );
  });

  it('refuses a symbol the service does not know, leaving no file, exit status 2', async () => {
    const out = join(dir, 'unknown');
    const run = await runTrader(['data', 'fetch', '700.HK', 'NOPE.HK', '--from', '2024-01-01', '--to', '2024-01-04', '--out', out], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('error: no such security: NOPE.HK (the service has no static info for it)');
    await expect(readFile(join(out, '700.HK.csv'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('writes no file for a range without bars, and says so', async () => {
    const out = join(dir, 'empty');
    const run = await runTrader(['data', 'fetch', '700.HK', '--from', '2023-01-01', '--to', '2023-01-04', '--out', out], env);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('data fetch: 700.HK: no bars from 2023-01-01 to 2023-01-04: no file written');
    await expect(readFile(join(out, '700.HK.csv'), 'utf8')).rejects.toThrow(/ENOENT/);
  });
});

describe('snapshot commands', () => {
  it('prints a quote, static info, trading days and capital figures', async () => {
    const [quote, info, days, flow, distribution] = await Promise.all([
      runTrader(['quote', '700.HK', '--json'], env),
      runTrader(['static', '700.HK'], env),
      runTrader(['trading-days', '--market', 'HK', '--from', '2024-01-02', '--to', '2024-01-05'], env),
      runTrader(['capital-flow', '700.HK'], env),
      runTrader(['capital-distribution', '700.HK', '--json'], env),
    ]);
    expect(flow.stdout).toContain('2024-01-02 09:31:00+08:00  -20.25');
    expect(JSON.parse(distribution.stdout)).toMatchObject({
      symbol: '700.HK',
      capitalIn: { large: '100.5' },
      capitalOut: { medium: '60.25' },
    });
    expect(JSON.parse(quote.stdout)).toMatchObject([{ symbol: '700.HK', lastDone: '388.2', prevClose: '380' }]);
    expect(info.stdout).toContain('HKEquity');
    expect(days.stdout.split('\n').slice(2, 4)).toEqual(['2024-01-02  full day', '2024-01-05  half day']);
  });
});
