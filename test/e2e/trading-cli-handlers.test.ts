// The trading commands run in-process (the yargs setup of src/cli/main.ts) for the many flag and output variants;
// trading-cli.test.ts runs each command once through the real binary.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatError } from '../../src/cli/errors.js';
import { InvalidInputError } from '../../src/domain/errors.js';
import { MissingCredentialsError } from '../../src/openapi/config.js';
import { ServiceError } from '../../src/openapi/http/errors.js';
import { runInProcess } from '../support/http/cli-in-process.js';
import { TEST_SECRET, TEST_TOKEN } from '../support/http/client-harness.js';
import { failure, ok, startFakeOpenApi, type FakeOpenApiServer } from '../support/http/fake-openapi-server.js';
import { tradingRoutes } from '../support/http/trading-routes.js';
import { orderRow } from '../support/http/wire-samples.js';

const KEY = 'in-process-key';
let server: FakeOpenApiServer;
const savedEnv = { ...process.env };

beforeAll(async () => {
  server = await startFakeOpenApi({ appSecret: TEST_SECRET, accessToken: TEST_TOKEN, routes: tradingRoutes });
  Object.assign(process.env, {
    LONGPORT_APP_KEY: KEY,
    LONGPORT_APP_SECRET: TEST_SECRET,
    LONGPORT_ACCESS_TOKEN: TEST_TOKEN,
    LONGPORT_HTTP_URL: server.url,
    LONGPORT_QUOTE_WS_URL: 'ws://127.0.0.1:1',
    LONGPORT_TRADE_WS_URL: 'ws://127.0.0.1:1',
  });
  delete process.env['LONGPORT_ACCESS_TOKEN_EXPIRED_AT'];
});

afterAll(async () => {
  process.env = savedEnv;
  await server.close();
});

const submit = (...extra: string[]) => [
  'order',
  'submit',
  '--symbol',
  '700.HK',
  '--side',
  'Buy',
  '--type',
  'LO',
  '--quantity',
  '200',
  '--price',
  '50',
  ...extra,
];

describe('--help', () => {
  const commands = [
    ['account'],
    ['positions'],
    ['order', 'submit'],
    ['order', 'show'],
    ['order', 'cancel'],
    ['order', 'replace'],
    ['orders'],
    ['buy-limit'],
    ['margin-ratio'],
    ['watchlist'],
    ['securities'],
    ['statements', 'list'],
    ['statements', 'download'],
    ['topics', 'mine'],
    ['topics', 'show'],
    ['topics', 'create'],
    ['topics', 'replies'],
    ['topics', 'reply'],
    ['token', 'refresh'],
  ];

  it.each(commands)('explains `trader %s` with examples', async (...command) => {
    const run = await runInProcess([...command, '--help']);
    expect(run.error).toBeUndefined();
    expect(run.usage).toContain(`trader ${command.join(' ')}`);
    expect(run.usage).toContain('Examples:');
  });

  it('lists the actions of the command groups', async () => {
    for (const [group, actions] of [
      ['order', ['submit', 'show', 'cancel', 'replace']],
      ['statements', ['list', 'download']],
      ['topics', ['mine', 'show', 'create', 'replies', 'reply']],
      ['token', ['refresh']],
    ] as const) {
      const run = await runInProcess([group, '--help']);
      for (const action of actions) expect(run.usage).toContain(`trader ${group} ${action}`);
    }
  });
});

describe('bad flags are refused before any request, naming the flag', () => {
  const cases: readonly (readonly [string, readonly string[], string | RegExp])[] = [
    [
      'an unknown order type',
      ['order', 'submit', '--symbol', '700.HK', '--side', 'Buy', '--type', 'XYZ', '--quantity', '1'],
      '--type: "XYZ" is not one of LO, ELO, MO',
    ],
    ['a malformed symbol', submit().map((arg) => (arg === '700.HK' ? '700' : arg)), '--symbol: symbol "700" must look like CODE.MARKET'],
    ['an unknown market', submit().map((arg) => (arg === '700.HK' ? '700.XX' : arg)), '--symbol: symbol "700.XX": unknown market "XX"'],
    ['a negative quantity', submit().map((arg) => (arg === '200' ? '-5' : arg)), '--quantity: must be greater than zero (got -5)'],
    ['a zero quantity', submit().map((arg) => (arg === '200' ? '0' : arg)), '--quantity: must be greater than zero (got 0)'],
    ['a quantity that is no number', submit().map((arg) => (arg === '200' ? '2OO' : arg)), '--quantity: "2OO" is not a decimal number'],
    [
      'a limit order without price',
      ['order', 'submit', '--symbol', '700.HK', '--side', 'Buy', '--type', 'LO', '--quantity', '200'],
      '--price is required for LO orders',
    ],
    ['a negative price', submit().map((arg) => (arg === '50' ? '-1' : arg)), '--price: must be greater than zero'],
    ['GTD without an expiry date', submit('--tif', 'GTD'), '--expire-date is required for GTD (good till date) orders'],
    [
      'an expiry date that does not exist',
      submit('--tif', 'GTD', '--expire-date', '2024-02-30'),
      '--expire-date: "2024-02-30" is not a date (YYYY-MM-DD)',
    ],
    ['an expiry date without GTD', submit('--expire-date', '2024-02-28'), '--expire-date only applies to --tif GTD'],
    ['an unknown side', submit().map((arg) => (arg === 'Buy' ? 'Hold' : arg)), '--side: "Hold" is not one of Buy, Sell'],
    ['an unknown time in force', submit('--tif', 'IOC'), '--tif: "IOC" is not one of Day, GTC, GTD'],
    ['an unknown session choice', submit('--outside-rth', 'NEVER'), '--outside-rth: "NEVER" is not one of RTH_ONLY, ANY_TIME, OVERNIGHT'],
    [
      'a LIT order without trigger price',
      submit().map((arg) => (arg === 'LO' ? 'LIT' : arg)),
      '--trigger-price is required for LIT orders',
    ],
    [
      'a TSLPPCT order without trailing percent',
      ['order', 'submit', '--symbol', '700.HK', '--side', 'Sell', '--type', 'TSLPPCT', '--quantity', '1'],
      '--trailing-percent is required for TSLPPCT orders',
    ],
    [
      'a TSLPAMT order without limit offset',
      ['order', 'submit', '--symbol', '700.HK', '--side', 'Sell', '--type', 'TSLPAMT', '--quantity', '1', '--trailing-amount', '1'],
      '--limit-offset is required for TSLPAMT orders',
    ],
    ['a remark over 64 characters', submit('--remark', 'x'.repeat(65)), '--remark: at most 64 characters (got 65)'],
    [
      'a price for a market order (it would go out as a market order)',
      submit().map((arg) => (arg === 'LO' ? 'MO' : arg)),
      '--price does not apply to MO orders (only to LO, ELO, ALO, ODD, LIT, SLO)',
    ],
    [
      'a trailing percent for a limit order',
      submit('--trailing-percent', '5'),
      '--trailing-percent does not apply to LO orders (only to TSLPPCT)',
    ],
    [
      'a trigger price for a limit order',
      submit('--trigger-price', '49'),
      '--trigger-price does not apply to LO orders (only to LIT, MIT)',
    ],
    ['a replace to zero', ['order', 'replace', '1', '--quantity', '0'], '--quantity: must be greater than zero'],
    ['an unknown status filter', ['orders', '--status', 'Done'], '--status: "Done" is not one of NotReported'],
    ['a start time without --history', ['orders', '--start', '2024-01-01'], '--start only applies with --history'],
    [
      'a bad start time',
      ['orders', '--history', '--start', 'yesterday'],
      '--start: "yesterday" is not a date (YYYY-MM-DD) or an RFC 3339 time',
    ],
    ['a bad position symbol', ['positions', '700.HK', 'TSLA'], 'SYMBOL: symbol "TSLA" must look like CODE.MARKET'],
    ['a bad margin-ratio symbol', ['margin-ratio', 'HK'], 'SYMBOL: symbol "HK" must look like CODE.MARKET'],
    [
      'a buy-limit with an unknown type',
      ['buy-limit', '--symbol', '700.HK', '--type', 'LIMIT', '--side', 'Buy'],
      '--type: "LIMIT" is not one of',
    ],
    ['an unknown market for securities', ['securities', '--market', 'JP'], '--market: "JP" is not one of HK, US, CN, SG'],
    ['an unknown language', ['securities', '--market', 'US', '--lang', 'fr'], '--lang: "fr" is not one of en, zh-CN, zh-HK'],
    ['an unknown statement type', ['statements', 'list', '--type', 'weekly'], '--type: "weekly" is not one of daily, monthly'],
    ['a page below 1', ['statements', 'list', '--page', '0'], '--page: must be a whole number of at least 1 (got 0)'],
    ['an empty topic title', ['topics', 'create', '--title', ' ', '--body', 'b'], '--title: must not be empty'],
    ['a bad token expiry', ['token', 'refresh', '--expires-at', 'next week'], '--expires-at: "next week" is not a date'],
  ];

  it.each(cases)('refuses %s', async (_name, args, message) => {
    const run = await runInProcess(args);
    expect(run.error).toBeInstanceOf(InvalidInputError);
    expect((run.error as Error).message).toContain(message);
    expect(formatError(run.error, false)).not.toContain('\n');
    expect(server.requestsBy(KEY)).toHaveLength(0);
  });

  it('lets yargs refuse unknown flags and missing required ones', async () => {
    expect(String((await runInProcess(submit('--prise', '1'))).error)).toContain('Unknown argument: prise');
    expect(String((await runInProcess(['order', 'submit', '--symbol', '700.HK'])).error)).toContain(
      'Missing required arguments: side, type, quantity',
    );
    expect(server.requestsBy(KEY)).toHaveLength(0);
  });
});

describe('output and failures', () => {
  it('prints the account balance and cash as tables', async () => {
    const run = await runInProcess(['account', '--currency', 'hkd']);
    expect(run.error).toBeUndefined();
    expect(run.stdout).toMatch(/^CURRENCY\s+TOTAL CASH\s+NET ASSETS\s+BUY POWER/);
    expect(run.stdout).toMatch(/HKD\s+1759070010\.72\s+1800000000\.01\s+1500000000\.99/);
    expect(run.stdout).toMatch(/CASH\s+AVAILABLE\s+WITHDRAWABLE\s+FROZEN\s+SETTLING\n-+.*\nHKD\s+195902464\.37\s+97592\.3/);
    expect(server.requestsBy(KEY).at(-1)!.query).toBe('currency=HKD');
  });

  it("prints the submitted order's id and status as JSON with --json, only the id with --no-wait", async () => {
    expect(JSON.parse((await runInProcess(submit('--json'))).stdout)).toEqual({ orderId: '7001', status: 'PartialFilledStatus' });
    const sent = server.requestsBy(KEY).length;
    expect(JSON.parse((await runInProcess(submit('--json', '--no-wait'))).stdout)).toEqual({ orderId: '7001' });
    expect(
      server
        .requestsBy(KEY)
        .slice(sent)
        .map((request) => request.method),
    ).toEqual(['POST']);
  });

  it('says when history has more orders than one answer holds', async () => {
    const run = await runInProcess(['orders', '--history', '--symbol', '700.HK', '--side', 'Sell', '--market', 'hk']);
    expect(server.requestsBy(KEY).at(-1)!.query).toBe('symbol=700.HK&side=Sell&market=HK');
    expect(run.stdout).toMatch(/FilledStatus/);
    expect(run.stdout).toContain('(more orders exist: narrow --start/--end)');
  });

  it('sends the history time range in unix seconds and prints the orders as JSON', async () => {
    const run = await runInProcess(['orders', '--history', '--start', '2024-01-01', '--end', '2024-02-01', '--json']);
    expect(server.requestsBy(KEY).at(-1)!.query).toBe('start_at=1704067200&end_at=1706745600');
    const history = JSON.parse(run.stdout) as { hasMore: boolean; orders: Record<string, unknown>[] };
    expect(history.hasMore).toBe(true);
    expect(history.orders[0]).toMatchObject({
      orderId: '706388312699592704',
      status: 'FilledStatus',
      executedQuantity: '200',
      executedPrice: '49.95',
      price: '50',
    });
  });

  it('prints names in the default language', async () => {
    const run = await runInProcess(['securities', '--market', 'US']);
    expect(server.requestsBy(KEY).at(-1)!.headers['accept-language']).toBe('en');
    expect(run.stdout).toMatch(/BAC\.US\s+Bank of America/);
  });

  it('prints the refreshed token as JSON with --json', async () => {
    const run = await runInProcess(['token', 'refresh', '--expires-at', '2024-09-01T12:00:00+08:00', '--json']);
    expect(server.requestsBy(KEY).at(-1)!.query).toBe('expired_at=2024-09-01T04%3A00%3A00Z');
    expect(JSON.parse(run.stdout)).toEqual({
      token: 'fresh-token.abc',
      expiresAt: '2024-09-01T00:00:00.000Z',
      issuedAt: '2024-06-03T00:00:00.000Z',
    });
  });

  it('says so when there is nothing to list', async () => {
    server.route('GET /v1/trade/order/today', () => ok({ orders: [] }));
    server.route('GET /v1/asset/stock', () => ok({ list: [] }));
    expect((await runInProcess(['orders'])).stdout).toBe('no orders\n');
    expect((await runInProcess(['positions'])).stdout).toBe('no positions\n');
    server.route('GET /v1/trade/order/today', () => ok({ orders: [orderRow()] }));
  });

  it('turns a service error into one readable line', async () => {
    server.route('GET /v1/risk/margin-ratio', () => failure(401003, 'token expired', 401));
    const run = await runInProcess(['margin-ratio', '700.HK']);
    expect(run.error).toBeInstanceOf(ServiceError);
    expect(formatError(run.error, false)).toBe('error: token expired (401003): create a new access token in the LongPort developer center');
  });

  it('names the missing credentials', async () => {
    const token = process.env['LONGPORT_ACCESS_TOKEN'];
    delete process.env['LONGPORT_ACCESS_TOKEN'];
    try {
      const run = await runInProcess(['watchlist']);
      expect(run.error).toBeInstanceOf(MissingCredentialsError);
      expect((run.error as Error).message).toMatch(/^LONGPORT_ACCESS_TOKEN is not set/);
    } finally {
      process.env['LONGPORT_ACCESS_TOKEN'] = token;
    }
  });
});
