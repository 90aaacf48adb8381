// watchOrderUpdates (what `trader orders --watch` runs) against real local servers: the token over signed
// HTTP, order pushes over the trade connection, JSON lines out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchOrderUpdates } from '../../src/cli/market/watch-orders.js';
import { TRADE_COMMANDS } from '../../src/openapi/socket/commands.js';
import { messages } from '../../src/openapi/socket/messages.js';
import { TEST_SECRET, TEST_TOKEN } from '../support/http/client-harness.js';
import { runTrader } from '../support/http/run-trader.js';
import { spawnTrader } from '../support/socket/spawn-trader.js';
import { ok, startFakeOpenApi, type FakeOpenApiServer } from '../support/http/fake-openapi-server.js';
import { SocketTestServer } from '../support/socket/socket-test-server.js';
import { orderChanged, pushNotification, serveTopics } from '../support/socket/trade-fixtures.js';

let http: FakeOpenApiServer;
let socket: SocketTestServer;
const savedEnv = { ...process.env };

beforeAll(async () => {
  http = await startFakeOpenApi({
    appSecret: TEST_SECRET,
    accessToken: TEST_TOKEN,
    routes: { 'GET /v1/socket/token': () => ok({ otp: 'otp-orders', limit: 2, online: 1 }) },
  });
  socket = await SocketTestServer.start({ acceptOtp: (otp) => otp === 'otp-orders' });
  serveTopics(socket, ['private']);
  Object.assign(process.env, environment());
});

function environment(): Record<string, string> {
  return {
    LONGPORT_APP_KEY: 'orders-watch',
    LONGPORT_APP_SECRET: TEST_SECRET,
    LONGPORT_ACCESS_TOKEN: TEST_TOKEN,
    LONGPORT_HTTP_URL: http.url,
    LONGPORT_QUOTE_WS_URL: socket.url,
    LONGPORT_TRADE_WS_URL: socket.url,
  };
}

describe('trader orders --watch', () => {
  it('streams order updates from the real binary until Ctrl-C, then unsubscribes the topic', async () => {
    const subscribed = socket.requestsFor(TRADE_COMMANDS.subscribe).length;
    const unsubscribed = socket.requestsFor(TRADE_COMMANDS.unsubscribe).length;
    const watch = spawnTrader(['orders', '--watch'], environment());
    // A start-up guard of a minute: the binary takes tens of seconds to start on a loaded machine.
    await socket.until(() => socket.requestsFor(TRADE_COMMANDS.subscribe).length > subscribed, 60_000);
    pushNotification(socket, { event: 'order_changed_lb', data: orderChanged() });
    const update = JSON.parse(await watch.waitForLine((line) => line.includes('"type":"order"')));
    expect(update).toMatchObject({
      type: 'order',
      orderId: '701276261045858304',
      status: 'PartialFilledStatus',
      lastShare: '100',
      remark: 'client-42',
    });
    expect(await watch.interrupt()).toBe(0);
    const sent = socket.requestsFor(TRADE_COMMANDS.unsubscribe).slice(unsubscribed);
    expect(sent.map((request) => messages.unsub.decode(request.packet.body).topics)).toEqual([['private']]);
  }, 120_000);

  it('refuses list filters combined with --watch before connecting', async () => {
    const run = await runTrader(['orders', '--watch', '--history'], environment());
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('error: --history cannot be combined with --watch\n');
  });
});

afterAll(async () => {
  process.env = savedEnv;
  await socket.stop();
  await http.close();
});

describe('watchOrderUpdates', () => {
  it('writes each order update as one JSON line until stopped', async () => {
    const lines: string[] = [];
    const subscribed = socket.requestsFor(TRADE_COMMANDS.subscribe).length;
    const stop = new AbortController();
    const watching = watchOrderUpdates(
      {},
      {
        signal: stop.signal,
        write: (text) => void lines.push(text),
        onUpdate: (update) => {
          if (update.status === 'FilledStatus') stop.abort();
        },
      },
    );
    await socket.until(() => socket.requestsFor(TRADE_COMMANDS.subscribe).length > subscribed);
    pushNotification(socket, { event: 'order_changed_lb', data: orderChanged() });
    pushNotification(socket, { event: 'order_changed_lb', data: orderChanged({ status: 'FilledStatus', executed_quantity: '200' }) });
    await watching;
    const updates = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.every((line) => line.endsWith('\n') && !line.slice(0, -1).includes('\n'))).toBe(true);
    expect(updates).toMatchObject([
      {
        type: 'order',
        orderId: '701276261045858304',
        status: 'PartialFilledStatus',
        lastShare: '100',
        lastPrice: '388.1',
        remark: 'client-42',
      },
      { type: 'order', status: 'FilledStatus', executedQuantity: '200' },
    ]);
  });
});
