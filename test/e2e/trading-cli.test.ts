// Every trading command through the real binary (node bin/trader.js) against a real local server that checks
// signatures on its own: requests as sent, output as printed. The processes run in parallel in beforeAll (each
// costs about a second of CPU); the tests then assert on what each one did.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenApi, type FakeOpenApiServer, type RecordedRequest } from '../support/http/fake-openapi-server.js';
import { TEST_SECRET, TEST_TOKEN } from '../support/http/client-harness.js';
import { inBatches, runTrader, type TraderRun } from '../support/http/run-trader.js';
import { tradingRoutes } from '../support/http/trading-routes.js';

interface Case {
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

const ORDER_ID = '706388312699592704';
const soon = new Date(Date.now() + 2 * 86_400_000).toISOString();

const cases = {
  account: { args: ['account', '--json'] },
  positions: { args: ['positions', '700.HK', 'aapl.us'] },
  submit: {
    args: [
      'order',
      'submit',
      '--symbol',
      '0700.hk',
      '--side',
      'buy',
      '--type',
      'LO',
      '--quantity',
      '200',
      '--price',
      '50.50',
      '--tif',
      'GTD',
      '--expire-date',
      '2024-06-28',
      '--outside-rth',
      'ANY_TIME',
      '--remark',
      'bot #1 & co = 腾讯',
    ],
  },
  show: { args: ['order', 'show', ORDER_ID] },
  cancel: { args: ['order', 'cancel', ORDER_ID] },
  replace: { args: ['order', 'replace', ORDER_ID, '--quantity', '100', '--price', '51', '--json'] },
  today: { args: ['orders', '--symbol', '700.HK', '--status', 'NewStatus', '--status', 'PartialFilledStatus'] },
  buyLimit: { args: ['buy-limit', '--symbol', '700.HK', '--type', 'LO', '--side', 'Buy', '--price', '50'] },
  marginRatio: { args: ['margin-ratio', '700.HK'] },
  watchlist: { args: ['watchlist'], env: { LONGPORT_ACCESS_TOKEN_EXPIRED_AT: soon } },
  securities: { args: ['securities', '--market', 'US', '--lang', 'zh-CN'] },
  statementsList: { args: ['statements', 'list', '--type', 'monthly'] },
  statementsDownload: { args: ['statements', 'download', 'statement/2024/01/05.pdf'] },
  topicsMine: { args: ['topics', 'mine'] },
  topicsShow: { args: ['topics', 'show', 'T1'] },
  topicsCreate: { args: ['topics', 'create', '--title', 'Q3 & more', '--body', 'Margins **up** 腾讯', '--ticker', '700.HK', '--json'] },
  topicsReplies: { args: ['topics', 'replies', 'T1'] },
  topicsReply: { args: ['topics', 'reply', 'T1', '--body', 'Agreed'] },
  tokenRefresh: { args: ['token', 'refresh', '--expires-at', '2024-09-01'] },
  wrongSecret: { args: ['account'], env: { LONGPORT_APP_SECRET: 'not-the-secret' } },
  limitWithoutPrice: { args: ['order', 'submit', '--symbol', '700.HK', '--side', 'Buy', '--type', 'LO', '--quantity', '200'] },
  dashedRemark: {
    args: ['order', 'submit', '--symbol', '700.HK', '--side', 'Buy', '--type', 'MO', '--quantity', '200', '--remark', '-hedge'],
  },
  dashedRemarkJoined: {
    args: ['order', 'submit', '--symbol', '700.HK', '--side', 'Buy', '--type', 'MO', '--quantity', '200', '--remark=-hedge'],
  },
} satisfies Record<string, Case>;
type Name = keyof typeof cases;

let server: FakeOpenApiServer;
const runs = new Map<Name, TraderRun>();

beforeAll(async () => {
  server = await startFakeOpenApi({ appSecret: TEST_SECRET, accessToken: TEST_TOKEN, routes: tradingRoutes });
  const names = Object.keys(cases) as Name[];
  const results = await inBatches(
    names.map((name) => () => {
      const testCase: Case = cases[name];
      return runTrader(testCase.args, {
        LONGPORT_APP_KEY: `key-${name}`,
        LONGPORT_APP_SECRET: TEST_SECRET,
        LONGPORT_ACCESS_TOKEN: TEST_TOKEN,
        LONGPORT_HTTP_URL: server.url,
        LONGPORT_QUOTE_WS_URL: 'ws://127.0.0.1:1',
        LONGPORT_TRADE_WS_URL: 'ws://127.0.0.1:1',
        ...testCase.env,
      });
    }),
    4,
  );
  names.forEach((name, index) => {
    runs.set(name, results[index]!);
  });
}, 120_000);

afterAll(async () => server?.close());

/** The run of a case, asserting it succeeded unless told otherwise, and the requests it made. */
function result(name: Name, expectSuccess = true): TraderRun & { readonly requests: readonly RecordedRequest[] } {
  const run = runs.get(name)!;
  if (expectSuccess) expect(run, `${name}: ${run.stderr}`).toMatchObject({ code: 0 });
  const requests = server.requestsBy(`key-${name}`);
  if (expectSuccess) for (const request of requests) expect(request.signatureValid).toBe(true);
  return { ...run, requests };
}

describe('trader trading commands (real binary, real server)', () => {
  it('trader account --json prints the balance', () => {
    const { stdout, requests } = result('account');
    expect(requests.map((request) => `${request.method} ${request.path}?${request.query}`)).toEqual(['GET /v1/asset/account?']);
    const [balance] = JSON.parse(stdout) as Record<string, unknown>[];
    expect(balance).toMatchObject({
      currency: 'HKD',
      totalCash: '1759070010.72',
      buyPower: '1500000000.99',
      netAssets: '1800000000.01',
      riskLevel: 1,
    });
    expect(balance!['cashInfos']).toEqual([
      { currency: 'HKD', withdrawCash: '97592.3', availableCash: '195902464.37', frozenCash: '11579339.13', settlingCash: '207288537.81' },
    ]);
  });

  it('trader positions asks for the given symbols and prints a table', () => {
    const { stdout, requests } = result('positions');
    expect(requests[0]!.query).toBe('symbol=700.HK&symbol=AAPL.US');
    expect(stdout).toMatch(/^SYMBOL\s+NAME\s+QUANTITY\s+AVAILABLE\s+COST PRICE/);
    expect(stdout).toMatch(/700\.HK\s+TENCENT\s+650\s+450\s+457\.53\s+HKD\s+lb/);
  });

  it('trader order submit sends every field in protocol order, then looks the order up and prints its status', () => {
    const { stdout, requests } = result('submit');
    expect(requests.map((request) => `${request.method} ${request.path}?${request.query}`)).toEqual([
      'POST /v1/trade/order?',
      'GET /v1/trade/order?order_id=7001',
    ]);
    expect(requests[0]!.path).toBe('/v1/trade/order');
    expect(requests[0]!.body).toBe(
      '{"symbol":"700.HK","order_type":"LO","side":"Buy","submitted_quantity":"200","time_in_force":"GTD","submitted_price":"50.5",' +
        '"expire_date":"2024-06-28","outside_rth":"ANY_TIME","remark":"bot #1 & co = 腾讯"}',
    );
    expect(stdout).toBe('submitted order 7001: PartialFilledStatus\n');
  });

  it('trader order show prints the order and its history', () => {
    const { stdout, requests } = result('show');
    expect(requests[0]!.query).toBe(`order_id=${ORDER_ID}`);
    expect(stdout).toMatch(/^order id\s+706388312699592704$/m);
    expect(stdout).toMatch(/^status\s+PartialFilledStatus$/m);
    expect(stdout).toMatch(/^filled\s+100 at 49\.9$/m);
    expect(stdout).toMatch(/2022-05-04 06:14:59Z\s+PartialFilledStatus\s+100\s+49\.9\s+partly filled/);
  });

  it('trader order cancel sends DELETE with the order id', () => {
    const { stdout, requests } = result('cancel');
    expect(requests.map((request) => [request.method, request.query, request.body])).toEqual([['DELETE', `order_id=${ORDER_ID}`, '']]);
    expect(stdout).toBe(`cancel requested for order ${ORDER_ID}\n`);
  });

  it('trader order replace reads the order, then sends PUT with the new quantity and price', () => {
    const { stdout, requests } = result('replace');
    expect(requests.map((request) => [request.method, request.path, request.query])).toEqual([
      ['GET', '/v1/trade/order', `order_id=${ORDER_ID}`],
      ['PUT', '/v1/trade/order', ''],
    ]);
    expect(requests[1]!.body).toBe(`{"order_id":"${ORDER_ID}","quantity":"100","price":"51"}`);
    expect(JSON.parse(stdout)).toEqual({ orderId: ORDER_ID, replaceRequested: true });
  });

  it("trader orders filters today's orders and prints a table", () => {
    const { stdout, requests } = result('today');
    expect(requests[0]!.path).toBe('/v1/trade/order/today');
    expect(requests[0]!.query).toBe('symbol=700.HK&status=NewStatus&status=PartialFilledStatus');
    expect(stdout).toMatch(/706388312699592704\s+700\.HK\s+Buy\s+LO\s+200\s+50\s+0\s+NewStatus\s+Day\s+2022-05-04 06:14:57Z\s+client-1/);
  });

  it('trader buy-limit prints cash and margin quantities', () => {
    const { stdout, requests } = result('buyLimit');
    expect(requests[0]!.query).toBe('symbol=700.HK&order_type=LO&price=50&side=Buy&fractional_shares=false');
    expect(stdout).toMatch(/700\.HK\s+1200\s+3600/);
  });

  it('trader margin-ratio prints the three factors', () => {
    const { stdout, requests } = result('marginRatio');
    expect(requests[0]!.query).toBe('symbol=700.HK');
    expect(stdout).toMatch(/700\.HK\s+0\.25\s+0\.2\s+0\.1/);
  });

  it('trader watchlist prints the groups, and warns on stderr that the token expires soon', () => {
    const { stdout, stderr, requests } = result('watchlist');
    expect(requests[0]!.path).toBe('/v1/watchlist/groups');
    expect(stdout).toMatch(/Tech\s+10086\s+AAPL\.US\s+Apple\s+150\.5/);
    expect(stderr).toContain('the access token expires in 2 day(s)');
    expect(stderr).not.toContain(TEST_TOKEN);
  });

  it('trader securities sends the language as accept-language', () => {
    const { stdout, requests } = result('securities');
    expect(requests[0]!.query).toBe('market=US&category=Overnight');
    expect(requests[0]!.headers['accept-language']).toBe('zh-CN');
    expect(stdout).toMatch(/BAC\.US\s+美国银行/);
  });

  it('trader statements list and download', () => {
    const list = result('statementsList');
    expect(list.requests[0]!.query).toBe('statement_type=2&start_date=1&limit=20');
    expect(list.stdout).toMatch(/20240105\s+statement\/2024\/01\/05\.pdf/);
    const download = result('statementsDownload');
    expect(download.requests[0]!.query).toBe('file_key=statement%2F2024%2F01%2F05.pdf');
    expect(download.stdout).toBe('https://files.invalid/statement.pdf?sig=abc\n');
  });

  it('trader topics mine, show, create, replies and reply', () => {
    const mine = result('topicsMine');
    expect(mine.requests[0]!.path).toBe('/v1/content/topics/mine');
    expect(mine.stdout).toMatch(/T1\s+post\s+Hello\s+3\s+1\s+10\s+2023-11-14 22:13:20Z/);
    const show = result('topicsShow');
    expect(show.requests[0]!.path).toBe('/v1/content/topics/T1');
    expect(show.stdout).toMatch(/^title\s+Hello$/m);
    expect(show.stdout).toContain('# Hello');
    const create = result('topicsCreate');
    expect(create.requests[0]!.body).toBe('{"title":"Q3 & more","body":"Margins **up** 腾讯","tickers":["700.HK"]}');
    expect(JSON.parse(create.stdout)).toEqual({ id: 'T9' });
    const replies = result('topicsReplies');
    expect(replies.requests[0]!.path).toBe('/v1/content/topics/T1/comments');
    expect(replies.stdout).toMatch(/R1\s+Bob\s+0\s+2023-11-14 22:16:40Z\s+nice/);
    const reply = result('topicsReply');
    expect(reply.requests[0]!.method).toBe('POST');
    expect(reply.requests[0]!.body).toBe('{"body":"Agreed"}');
    expect(reply.stdout).toBe('created reply R2 on topic T1\n');
  });

  it('trader token refresh prints export lines for the new token', () => {
    const { stdout, requests } = result('tokenRefresh');
    expect(requests[0]!.query).toBe('expired_at=2024-09-01T00%3A00%3A00Z');
    expect(stdout).toBe('export LONGPORT_ACCESS_TOKEN=fresh-token.abc\nexport LONGPORT_ACCESS_TOKEN_EXPIRED_AT=2024-09-01T00:00:00.000Z\n');
  });

  it('prints a service error on one line and exits 1, without secrets', () => {
    const { code, stdout, stderr } = result('wrongSecret', false);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe('error: signature invalid (403201): check LONGPORT_APP_SECRET and the system clock\n');
  });

  it("refuses a text value that starts with a dash after a space, saying how to write it ('-hedge' showed help and exited 0)", () => {
    const { code, stdout, stderr, requests } = result('dashedRemark', false);
    expect({ code, stdout, stderr, requests }).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: --remark needs a value; a value that starts with a dash is written --remark=-hedge\nRun with --help for usage.\n',
      requests: [],
    });
    const joined = result('dashedRemarkJoined');
    expect(JSON.parse(joined.requests[0]!.body)).toMatchObject({ remark: '-hedge' });
  });

  it('refuses a limit order without price before sending anything (exit 2)', () => {
    const { code, stderr, requests } = result('limitWithoutPrice', false);
    expect(code).toBe(2);
    expect(stderr).toBe('error: --price is required for LO orders\n');
    expect(requests).toHaveLength(0);
  });
});
