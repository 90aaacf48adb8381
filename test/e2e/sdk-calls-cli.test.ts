// The commands behind the SDK's calls, run in-process (the yargs setup of src/cli/main.ts) against a real
// simulator on 127.0.0.1: every command explains itself with examples, refuses bad flags naming them, and
// prints what the service answered as tables and --json.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Quantity } from '../../src/domain/quantity.js';
import { InvalidInputError } from '../../src/domain/errors.js';
import { runInProcess } from '../support/http/cli-in-process.js';
import { HK, localInstant, minuteCandles, US } from '../support/sim/candles.js';
import { startSimHarness, type SimHarness, useSimulatorEnv } from '../support/sim/harness.js';
import { spawnTrader } from '../support/socket/spawn-trader.js';

const DATES = ['2024-01-02', '2024-01-03', '2024-01-04', '2024-01-05', '2024-01-08', '2024-01-09'];
let h: SimHarness;
let restoreEnv: () => void;

beforeAll(async () => {
  h = await startSimHarness({
    candles: [minuteCandles(HK, DATES), minuteCandles(US, DATES)],
    venue: { stockNames: { '700.HK': 'TENCENT' }, fees: 'hk-stock' },
  });
  h.stepUntil((tick) => tick.symbol === HK);
  await h.http.submitOrder({ symbol: HK, side: 'Buy', orderType: 'MO', quantity: Quantity.of(100), timeInForce: 'Day' });
  h.stepUntil((tick) => tick.symbol === HK && tick.time >= localInstant(HK, '2024-01-03', 9, 40));
  await h.http.submitOrder({ symbol: HK, side: 'Buy', orderType: 'MO', quantity: Quantity.of(200), timeInForce: 'Day' });
  h.stepUntil((tick) => tick.symbol === US && tick.time >= localInstant(US, '2024-01-03', 9, 45));
  restoreEnv = useSimulatorEnv(h);
});

afterAll(async () => {
  restoreEnv();
  await h.close();
});

async function json<T = unknown>(...args: string[]): Promise<T> {
  const run = await runInProcess([...args, '--json']);
  if (run.error !== undefined) throw run.error;
  return JSON.parse(run.stdout) as T;
}

async function table(...args: string[]): Promise<string> {
  const run = await runInProcess(args);
  if (run.error !== undefined) throw run.error;
  return run.stdout;
}

type Row = Record<string, unknown>;

describe('--help of the commands behind the SDK calls', () => {
  const commands = [
    ['depth'],
    ['brokers'],
    ['participants'],
    ['trades'],
    ['intraday'],
    ['trading-sessions'],
    ['option-chain'],
    ['option-quote'],
    ['warrant-quote'],
    ['warrant-issuers'],
    ['warrants'],
    ['calc-indexes'],
    ['temperature'],
    ['quote-profile'],
    ['realtime'],
    ['watch'],
    ['executions'],
    ['cash-flow'],
    ['fund-positions'],
    ['watchlist', 'create'],
    ['watchlist', 'update'],
    ['watchlist', 'delete'],
    ['api'],
  ];

  it.each(commands)('explains `trader %s` with examples', async (...command) => {
    const run = await runInProcess([...command, '--help']);
    expect(run.error).toBeUndefined();
    expect(run.usage).toContain(`trader ${command.join(' ')}`);
    expect(run.usage).toContain('Examples:');
  });
});

describe('bad flags are refused before anything is sent, naming the flag', () => {
  const cases: readonly (readonly [readonly string[], string])[] = [
    [['trades', HK, '--count', '5000'], '--count: at most 1000'],
    [['candles', HK, '--at', '2024-01-02', '--from', '2024-01-01', '--to', '2024-01-02'], 'give either --at or --from/--to'],
    [['candles', HK, '--forward'], '--forward applies with --at'],
    [['candles', HK, '--csv', '--json'], 'give either --csv or --json, not both'],
    [['candles', HK, '--at', '2024-01-02 9:40'], '--at: "2024-01-02 9:40" is not YYYY-MM-DD or YYYY-MM-DDTHH:MM'],
    [['candles', HK, '--at', '2024-01-02T25:00', '--period', '1m'], '--at: "2024-01-02T25:00" is not a time of day'],
    [['candles', HK, '--at', '2024-01-02T09:40', '--period', 'day'], '--at: a time of day applies to intraday periods, not day'],
    [['option-chain', US, '--expiry', '2024-02-30'], '--expiry: "2024-02-30" is not a date'],
    [['warrants', HK, '--type', 'Turbo'], '--type: "Turbo" is not one of Call, Put, Bull, Bear, Inline'],
    [['warrants', HK, '--sort-by', 'price'], '--sort-by: "price" is not one of lastDone'],
    [['warrants', HK, '--expiry', 'soon'], '--expiry: "soon" is not one of lt3, 3to6, 6to12, gt12'],
    [['warrants', HK, '--issuer', 'HSBC'], '--issuer: not a number: issuer ids come from `trader warrant-issuers`'],
    [['warrants', HK, '--issuer', '1.5'], '--issuer: "1.5" is not a whole number'],
    [['warrants', HK, '--offset', '2'], '--offset applies with --count'],
    [['calc-indexes', HK, '--index', 'beta'], '--index: "beta" is not one of lastDone'],
    [['temperature', '--market', 'JP'], '--market: "JP" is not one of HK, US, CN, SG'],
    [['temperature', '--market', 'HK', '--from', '2024-01-01'], '--from and --to go together'],
    [['realtime', HK, '--candles', '7m'], '--candles: period "7m" is not one of'],
    [['executions', '--start', '2024-01-01'], '--start only applies with --history'],
    [['executions', '--history', '--order-id', '1'], '--order-id applies to today only'],
    [['cash-flow', '--start', '2024-01-05', '--end', '2024-01-01'], '--start is after --end'],
    [['cash-flow', '--start', '2024-01-01', '--end', '2024-01-05', '--type', 'bond'], '--type: "bond" is not one of cash, stock, fund'],
    [['fund-positions', 'HK123'], 'ISIN: "HK123" is not an ISIN'],
    [['watchlist', 'update', 'x1', '--name', 'n'], 'ID: "x1" is not a watchlist group id'],
    [['watchlist', 'update', '2', '--add', HK, '--remove', US], 'give one of --add, --remove and --replace'],
    [['watchlist', 'update', '2'], 'nothing to change'],
    [['api', 'PATCH', '/v1/asset/account'], 'METHOD: "PATCH" is not one of GET, POST, PUT, DELETE'],
    [['api', 'GET', 'v1/asset/account'], 'PATH: "v1/asset/account" must start with /'],
    [['api', 'POST', '/v1/watchlist/groups', '--body', '{name'], '--body: not JSON'],
  ];

  it.each(cases)('%j', async (args, message) => {
    const run = await runInProcess(args);
    expect(run.error).toBeInstanceOf(InvalidInputError);
    expect((run.error as Error).message).toContain(message);
  });
});

describe('quote commands', () => {
  it('names on stderr the symbols the service answered no quote or static info for', async () => {
    for (const [command, what] of [
      ['quote', 'quote'],
      ['static', 'static info'],
    ] as const) {
      const run = await runInProcess([command, HK, 'ZZZZ.US']);
      expect(run.error).toBeUndefined();
      expect(run.stdout).toContain(HK);
      expect(run.stderr).toBe(`note: no ${what} for ZZZZ.US: the service answered none (a symbol it does not know?)\n`);
    }
    expect((await runInProcess(['quote', HK])).stderr).toBe('');
  });

  it('candles by offset: the bars up to an anchor, or from it with --forward (historyCandlesticksByOffset)', async () => {
    const times = async (...args: string[]) => (await json<Row[]>('candles', HK, ...args)).map((bar) => bar['time']);
    expect(await times('--period', '1m', '--at', '2024-01-02T09:40', '--count', '3')).toEqual([
      localInstant(HK, '2024-01-02', 9, 38),
      localInstant(HK, '2024-01-02', 9, 39),
      localInstant(HK, '2024-01-02', 9, 40),
    ]);
    expect(await times('--period', '1m', '--at', '2024-01-02T09:58', '--forward', '--count', '3')).toEqual([
      localInstant(HK, '2024-01-02', 9, 58),
      localInstant(HK, '2024-01-02', 9, 59),
      localInstant(HK, '2024-01-03', 9, 30),
    ]);
    // The replay is past the HK session of 3 January: two complete days.
    expect(await times('--period', 'day', '--at', '2024-01-02', '--forward', '--count', '5')).toEqual([
      localInstant(HK, '2024-01-02', 0, 0),
      localInstant(HK, '2024-01-03', 0, 0),
    ]);
    const rows = (await table('candles', HK, '--period', '5m', '--at', '2024-01-02T09:45', '--count', '2')).trim().split('\n');
    expect(rows.slice(2).map((row) => row.slice(0, 16))).toEqual(['2024-01-02 09:40', '2024-01-02 09:45']);
  });

  it('depth, broker queue, participants, trades, intraday lines and trading sessions', async () => {
    const depth = await json<{ asks: Row[]; bids: Row[] }>('depth', HK);
    expect([depth.asks.length, depth.bids.length]).toEqual([5, 5]);
    expect(await table('depth', HK)).toMatch(/^LEVEL\s+BID\s+BID VOLUME/);
    const brokers = await json<{ askBrokers: Row[] }>('brokers', HK);
    expect(brokers.askBrokers.map((row) => row['position'])).toEqual([1, 2, 3, 4, 5]);
    expect(await table('brokers', US)).toContain('no broker queue for AAPL.US');
    expect(await json<Row[]>('participants')).toHaveLength(30);
    expect(await table('participants')).toContain('Simulated Broker 01');
    const trades = await json<Row[]>('trades', HK, '--count', '3');
    expect(trades.map((row) => row['volume'])).toHaveLength(3);
    const lines = await json<Row[]>('intraday', HK);
    expect(lines[0]?.['timestamp']).toBe(localInstant(HK, '2024-01-03', 9, 30));
    expect(await table('trading-sessions')).toMatch(/HK\s+normal\s+09:30\s+12:00/);
  });

  it('option chains and quotes, warrant issuers, quotes and the screener', async () => {
    const dates = await json<string[]>('option-chain', US);
    expect(dates[0]).toBe('2024-01-19');
    const strikes = await json<Row[]>('option-chain', US, '--expiry', dates[1]!);
    expect(strikes).toHaveLength(21);
    const call = String(strikes[10]!['callSymbol']);
    const [option] = await json<Row[]>('option-quote', call);
    expect([option!['symbol'], option!['direction'], option!['underlyingSymbol'], option!['expiryDate']]).toEqual([
      call,
      'Call',
      US,
      dates[1],
    ]);
    expect(await table('option-chain', US, '--expiry', dates[1]!)).toContain(call);
    const [warrant] = await json<Row[]>('warrant-quote', '20000.HK');
    expect([warrant!['category'], warrant!['underlyingSymbol']]).toEqual(['Call', HK]);
    expect(await json<Row[]>('warrant-issuers')).toHaveLength(6);
    const bulls = await json<{ totalCount: number; warrants: Row[] }>(
      'warrants',
      HK,
      '--type',
      'Bull',
      '--sort-by',
      'lastDone',
      '--order',
      'asc',
    );
    expect(bulls.warrants.map((row) => row['warrantType'])).toEqual(['Bull', 'Bull']);
    const prices = bulls.warrants.map((row) => Number(row['lastDone']));
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(await table('warrants', HK, '--count', '3')).toContain('3 of 10');
    const picked = await json<{ warrants: Row[] }>('warrants', HK, '--issuer', '1', '--issuer', '3', '--expiry', 'lt3', '--expiry', '3to6');
    const client = await h.quoteClient();
    const expected = await client.warrantList(HK, { sortBy: 'volume', order: 'desc', issuers: [1, 3], expiry: ['lt3', '3to6'] });
    expect(picked.warrants.map((row) => row['symbol'])).toEqual(expected.warrants.map((row) => row.symbol));
    expect([expected.totalCount > 0, expected.totalCount < 10]).toEqual([true, true]);
  });

  it('calc indexes, market temperature and the quote profile', async () => {
    const [row] = await json<Row[]>('calc-indexes', HK, '--index', 'lastDone,peTtmRatio', '--index', 'volume');
    expect(Object.keys(row!).sort()).toEqual(['lastDone', 'peTtmRatio', 'symbol', 'volume']);
    expect(await table('calc-indexes', HK, US)).toMatch(/^INDEX\s+700\.HK\s+AAPL\.US/);
    const reading = await json<Row>('temperature', '--market', 'HK');
    expect(reading['temperature']).toEqual(expect.any(Number));
    const history = await json<{ granularity: string; records: Row[] }>(
      'temperature',
      '--market',
      'US',
      '--from',
      '2024-01-01',
      '--to',
      '2024-01-03',
    );
    expect([history.granularity, history.records.length]).toEqual(['daily', 3]);
    const profile = await json<{ quoteLevel: string; packages: Row[] }>('quote-profile');
    expect([profile.quoteLevel, profile.packages.map((row) => row['key']).sort()]).toEqual(['LV1', ['SIM_HK_LV1', 'SIM_US_LV1']]);
  });

  it('realtime: the state the first pushes and a candlestick subscription built', async () => {
    const [state] = await json<Row[]>('realtime', HK, '--depth', '--brokers', '--candles', '1m', '--pushes', '3', '--count', '2');
    expect((state!['quote'] as Row)['symbol']).toBe(HK);
    expect([(state!['asks'] as Row[]).length, (state!['askBrokers'] as Row[]).length]).toEqual([5, 5]);
    expect(((state!['candlesticks'] as Record<string, Row[]>)['1m'] ?? []).map((bar) => bar['time'])).toEqual([
      localInstant(HK, '2024-01-03', 9, 58),
      localInstant(HK, '2024-01-03', 9, 59),
    ]);
  });
});

describe('trade commands', () => {
  it("executions of today and of past days, the cash flow of the venue's fills, and fund positions", async () => {
    const today = await json<Row[]>('executions');
    expect(today.map((row) => row['quantity'])).toEqual(['200']);
    const past = await json<Row[]>('executions', '--history', '--symbol', HK);
    expect(past.map((row) => row['quantity'])).toEqual(['100']);
    expect(await table('executions', '--history')).toMatch(/700\.HK\s+100\s/);
    const flows = await json<Row[]>('cash-flow', '--start', '2024-01-01', '--end', '2024-01-05');
    expect(flows.map((row) => [row['businessType'], row['direction']])).toEqual([
      ['stock', 'in'],
      ['cash', 'out'],
      ['cash', 'out'],
      ['stock', 'in'],
      ['cash', 'out'],
      ['cash', 'out'],
    ]);
    const stock = await json<Row[]>(
      'cash-flow',
      '--start',
      '2024-01-01',
      '--end',
      '2024-01-05',
      '--type',
      'stock',
      '--size',
      '1',
      '--page',
      '2',
    );
    expect(stock.map((row) => row['balance'])).toEqual(['100']);
    expect(await json('fund-positions')).toEqual([]);
    expect(await table('fund-positions')).toBe('no fund positions\n');
  });

  it('watchlist groups: create, update, list, delete', async () => {
    const created = await json<{ id: string }>('watchlist', 'create', '--name', 'cli group', '--symbols', `${HK},${US}`);
    await json('watchlist', 'update', created.id, '--name', 'renamed', '--remove', US);
    const groups = await json<{ id: string; name: string; securities: Row[] }[]>('watchlist');
    expect(groups.map((group) => [group.name, group.securities.map((row) => row['symbol'])])).toContainEqual(['renamed', [HK]]);
    expect(await table('watchlist')).toMatch(/renamed\s+\d+\s+700\.HK/);
    await json('watchlist', 'delete', created.id, '--purge');
    expect((await json<{ name: string }[]>('watchlist', 'list')).map((group) => group.name)).toEqual(['all']);
  });

  it('api: any signed request', async () => {
    const data = await json<{ list: Row[] }>('api', 'GET', '/v1/asset/account?currency=HKD');
    expect(data.list.map((row) => row['currency'])).toEqual(['HKD']);
    const run = await runInProcess(['api', 'POST', '/v1/watchlist/groups', '--body', '{"name":"raw"}', '--header', 'accept-language: en']);
    expect(JSON.parse(run.stdout)).toEqual({ id: expect.any(String) });
  });
});

// Last: it moves the replay on to the next day.
describe('trader watch (the binary)', () => {
  it('streams broker queues and live candlesticks after listing the subscriptions, until Ctrl-C', async () => {
    const watch = spawnTrader(['watch', HK, '--brokers', '--candles', '1m', '--subscriptions'], h.sim.env);
    const listed = JSON.parse(await watch.waitForLine((line) => line.includes('"type":"subscriptions"'), 60_000)) as {
      subscriptions: Row[];
    };
    expect(listed.subscriptions).toEqual([{ symbol: HK, subTypes: ['quote', 'brokers', 'trades'], candlesticks: ['1m'] }]);
    h.stepUntil((tick) => tick.symbol === HK && tick.time >= localInstant(HK, '2024-01-04', 9, 31));
    const brokers = JSON.parse(await watch.waitForLine((line) => line.includes('"type":"brokers"'))) as Row;
    expect((brokers['askBrokers'] as Row[]).length).toBe(5);
    // The first bar of the day confirms the last one of the day before; the second minute confirms the first.
    const opening = `"time":${localInstant(HK, '2024-01-04', 9, 30)}`;
    const confirmed = JSON.parse(await watch.waitForLine((line) => line.includes('"confirmed":true') && line.includes(opening))) as Row;
    expect([confirmed['type'], confirmed['symbol'], confirmed['period']]).toEqual(['candlestick', HK, '1m']);
    expect(await watch.interrupt()).toBe(0);
  });
});
