// The dashboard server on 127.0.0.1 with a hand-written control: what needs the token and what does not,
// bad tokens slowed down on virtual time, actions as POSTs only (refused when read-only), live updates.
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/clock/virtual-clock.js';
import { silentLogger } from '../../src/log/logger.js';
import { AuthThrottle } from '../../src/ops/auth.js';
import { OpsHub } from '../../src/ops/hub.js';
import { startOpsServer, type OpsServer } from '../../src/ops/http/server.js';
import { createMetrics } from '../../src/ops/metrics.js';
import { StubControl, openOrder } from '../support/ops/stub-control.js';

const TOKEN = 'test-token-0123456789abcdef';
const T0 = Date.parse('2024-06-03T14:00:00Z');
let server: OpsServer | undefined;
let hub: OpsHub | undefined;

afterEach(async () => {
  await server?.close();
  hub?.close();
  server = undefined;
  hub = undefined;
});

async function setUp(options: { readOnly?: boolean; health?: { healthy: boolean }; throttle?: AuthThrottle } = {}) {
  const clock = new VirtualClock(T0);
  const control = new StubControl();
  hub = new OpsHub({ control, clock, logger: silentLogger, refreshEveryMs: 0, refreshGapMs: 0, readOnly: options.readOnly === true });
  hub.start();
  await hub.settled();
  const metrics = createMetrics(hub, control);
  server = await startOpsServer({
    host: '127.0.0.1',
    port: 0,
    token: TOKEN,
    clock,
    logger: silentLogger,
    dashboard: { hub, control, readOnly: options.readOnly === true },
    metrics,
    pushGapMs: 0,
    ...(options.throttle === undefined ? {} : { throttle: options.throttle }),
    ...(options.health === undefined ? {} : { health: { status: async () => ({ ...options.health!, jobs: ['a'] }) } }),
  });
  const call = async (path: string, init: { method?: 'GET' | 'POST' | 'HEAD'; token?: string; body?: string } = {}) => {
    const response = await request(`${server!.url}${path}`, {
      method: init.method ?? 'GET',
      headers: init.token === undefined ? {} : { authorization: `Bearer ${init.token}` },
      ...(init.body === undefined ? {} : { body: init.body }),
    });
    return { status: response.statusCode, headers: response.headers, text: await response.body.text() };
  };
  return { clock, control, hub, call };
}

describe('dashboard server', () => {
  it('serves the page and its files without the token (they hold no data), with a strict content policy and no cookie', async () => {
    const { call } = await setUp();
    for (const path of ['/', '/assets/dashboard.js', '/assets/dashboard.css', '/assets/lightweight-charts.js']) {
      const response = await call(path);
      expect(response.status, path).toBe(200);
      expect(response.headers['content-security-policy']).toContain("script-src 'self'");
      expect(response.headers['set-cookie']).toBeUndefined();
      expect(response.text).not.toContain('100000');
    }
    expect((await call('/')).headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('answers every other route only to the token: 401 with nothing in it otherwise', async () => {
    const { call } = await setUp({ throttle: new AuthThrottle({ freeFailures: 100 }) });
    for (const path of ['/api/state', '/api/events', '/metrics', '/api/nothing']) {
      const refused = await call(path, { token: 'wrong-token' });
      expect(refused.status, path).toBe(401);
      expect(refused.headers['www-authenticate']).toBe('Bearer');
      expect(refused.text).toBe('{"error":"a valid token is required (Authorization: Bearer TOKEN)"}\n');
      expect((await call(path)).status, path).toBe(401);
    }
    const state = await call('/api/state', { token: TOKEN });
    expect(state.status).toBe(200);
    expect(JSON.parse(state.text)).toMatchObject({ bot: { name: 'stub-strategy' }, account: { balances: [{ netAssets: '100000.00' }] } });
  });

  it('slows repeated bad tokens down on the clock and meanwhile refuses the address unchecked, good token included', async () => {
    const { clock, call } = await setUp();
    for (let attempt = 0; attempt < 4; attempt++) expect((await call('/api/state', { token: 'guess' })).status).toBe(401);

    let answered = false;
    const fifth = call('/api/state', { token: 'guess' }).then((response) => {
      answered = true;
      return response;
    });
    for (let turn = 0; turn < 50 && clock.nextTimerAt() !== T0 + 500; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(clock.nextTimerAt()).toBe(T0 + 500);
    const meanwhile = await call('/api/state', { token: TOKEN });
    expect(meanwhile.status).toBe(429);
    expect(meanwhile.headers['retry-after']).toBe('1');
    expect(answered).toBe(false);

    await clock.advanceByAsync(500);
    expect((await fifth).status).toBe(401);
    expect((await call('/api/state', { token: TOKEN })).status).toBe(200);
    expect((await call('/api/state', { token: 'guess' })).status).toBe(401);
  });

  it('takes actions as POSTs with the token, passes them to the control, and answers 409 when refused', async () => {
    const { control, call } = await setUp();
    const post = (path: string, body?: string) => call(path, { method: 'POST', token: TOKEN, ...(body === undefined ? {} : { body }) });

    expect((await post('/api/orders/7001/cancel')).status).toBe(200);
    expect((await post('/api/positions/aapl.us/flatten')).status).toBe(200);
    expect((await post('/api/jobs/hk%20trend/pause')).status).toBe(200);
    expect((await post('/api/jobs/dca/resume')).status).toBe(200);
    expect((await post('/api/jobs/dca/run')).status).toBe(200);
    expect((await post('/api/kill-switch/trip', '{"reason":"  fat finger  "}')).status).toBe(200);
    expect((await post('/api/kill-switch/trip')).status).toBe(200);
    control.answer = { done: false, message: 'the kill switch is not tripped' };
    const refused = await post('/api/kill-switch/reset');

    expect(refused).toMatchObject({ status: 409, text: '{"done":false,"message":"the kill switch is not tripped"}\n' });
    expect(control.calls).toEqual([
      'cancel 7001',
      'flatten AAPL.US',
      'pause hk trend',
      'resume dca',
      'run dca',
      'trip dashboard: fat finger',
      'trip dashboard: tripped by hand',
      'reset',
    ]);
    expect((await call('/api/orders/7001/cancel', { token: TOKEN })).status).toBe(405);
    expect((await post('/api/positions/nonsense/flatten')).status).toBe(400);
    expect((await post('/api/kill-switch/trip', 'not json')).status).toBe(400);
    expect((await post('/api/kill-switch/explode')).status).toBe(404);
    expect((await call('/api/orders/7001/cancel', { method: 'POST', token: 'wrong-token' })).status).toBe(401);
    expect(control.calls).toHaveLength(8);
  });

  it('refuses every action when read-only, and says so', async () => {
    const { control, call } = await setUp({ readOnly: true });
    const response = await call('/api/orders/7001/cancel', { method: 'POST', token: TOKEN });
    expect(response).toMatchObject({ status: 403, text: '{"error":"the dashboard is read-only (--ui-read-only)"}\n' });
    expect(control.calls).toEqual([]);
    expect(JSON.parse((await call('/api/state', { token: TOKEN })).text).bot.readOnly).toBe(true);
  });

  it('streams the whole state first, then each changed section', async () => {
    const { control, hub, clock } = await setUp();
    const response = await request(`${server!.url}/api/events`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    const chunks: string[] = [];
    const events = (async () => {
      for await (const chunk of response.body) {
        chunks.push(String(chunk));
        if (chunks.join('').includes('event: section')) break;
      }
    })();
    for (let turn = 0; turn < 50 && !chunks.join('').includes('event: state'); turn++)
      await new Promise((resolve) => setImmediate(resolve));
    control.figures = { ...control.figures, openOrders: [openOrder('7001', 'lt-abc-1', clock.now())] };
    hub.refresh();
    await events;

    const text = chunks.join('');
    expect(text.startsWith('event: state\ndata: {"bot":')).toBe(true);
    const orders = text
      .split('\n\n')
      .filter((block) => block.startsWith('event: section'))
      .map((block) => JSON.parse(block.split('data: ')[1]!))
      .find((section) => section.name === 'orders');
    expect(orders.value).toEqual([
      expect.objectContaining({ orderId: '7001', tag: 'lt-abc-1', price: '150.5', quantity: '10', status: 'NewStatus' }),
    ]);
  });

  it('says which port is taken when it cannot listen: a failure of the moment (PORT_IN_USE, exit status 1), not bad input', async () => {
    const { control, hub } = await setUp();
    const taken = server!.port;
    await expect(
      startOpsServer({
        host: '127.0.0.1',
        port: taken,
        token: TOKEN,
        clock: new VirtualClock(T0),
        logger: silentLogger,
        dashboard: { hub, control, readOnly: false },
      }),
    ).rejects.toMatchObject({
      code: 'PORT_IN_USE',
      message: `port ${taken} on 127.0.0.1 is already in use: pick another with --ui=PORT (0 picks a free one)`,
    });
  });

  it("names --ui-host when the address is not this machine's: bad input (INVALID_INPUT, exit status 2)", async () => {
    const { control, hub } = await setUp();
    await expect(
      startOpsServer({
        host: '192.0.2.1',
        port: 0,
        token: TOKEN,
        clock: new VirtualClock(T0),
        logger: silentLogger,
        dashboard: { hub, control, readOnly: false },
      }),
    ).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: '--ui-host: cannot listen on 192.0.2.1 (EADDRNOTAVAIL): give an address of this machine, e.g. 127.0.0.1 or 0.0.0.0',
    });
  });

  it('on the health port: /health says only healthy or not without the token, everything with it; /status needs it', async () => {
    const { call } = await setUp({ health: { healthy: false } });
    expect(await call('/health')).toMatchObject({ status: 503, text: '{"healthy":false}\n' });
    expect(await call('/health', { token: TOKEN })).toMatchObject({ status: 503, text: '{"healthy":false,"jobs":["a"]}\n' });
    expect((await call('/status')).status).toBe(401);
    expect(await call('/status', { token: TOKEN })).toMatchObject({ status: 200, text: '{"healthy":false,"jobs":["a"]}\n' });
  });
});
