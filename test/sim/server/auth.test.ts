import { afterEach, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../../src/openapi/config.js';
import { createOpenApiHttp } from '../../../src/openapi/http/client.js';
import { ServiceError } from '../../../src/openapi/http/errors.js';
import { SIM_CODES } from '../../../src/sim/server/index.js';
import { HK } from '../../support/sim/candles.js';
import { startSimHarness, type SimHarness } from '../../support/sim/harness.js';
import { rawCall } from '../../support/sim/raw-request.js';
import { Price, Quantity } from '../../../src/domain/index.js';

let h: SimHarness;

afterEach(async () => {
  await h.close();
});

const codeOf = async (call: Promise<unknown>): Promise<number | undefined> => {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  return error instanceof ServiceError ? error.serviceCode : undefined;
};

const order = {
  symbol: HK,
  side: 'Buy',
  orderType: 'LO',
  quantity: Quantity.of(100),
  price: Price.of(250),
  timeInForce: 'Day',
} as const;

describe('request authentication', () => {
  it('refuses a signature made with the wrong secret (403201)', async () => {
    h = await startSimHarness();
    const raw = await rawCall(h.sim, { path: '/v1/asset/account', appSecret: 'not-the-secret' });
    expect([raw.status, raw.json?.['code'], raw.json?.['message'], raw.json?.['msg']]).toEqual([
      403,
      403201,
      'signature invalid',
      'signature invalid',
    ]);
    const client = h.httpClient();
    const wrong = createOpenApiHttp({ ...h.config, appSecret: 'not-the-secret' }, { clock: h.clock });
    try {
      expect(await codeOf(wrong.accountBalance())).toBe(SIM_CODES.SIGNATURE_INVALID);
      expect(await codeOf(client.accountBalance())).toBeUndefined();
    } finally {
      await wrong.close();
    }
  });

  it('refuses a body other than the one signed (403201)', async () => {
    h = await startSimHarness();
    const signedFor = await rawCall(h.sim, {
      method: 'POST',
      path: '/v1/trade/order/submit',
      body: '{"order_id":"1"}',
      timestamp: '1717372900',
    });
    expect(signedFor.json?.['code']).toBe(SIM_CODES.ORDER_NOT_FOUND);
    const tampered = await rawCall(h.sim, {
      method: 'POST',
      path: '/v1/trade/order/submit',
      body: '{"order_id":"2"}',
      timestamp: '1717372900',
      signature: '0'.repeat(64),
    });
    expect(tampered.json?.['code']).toBe(SIM_CODES.SIGNATURE_INVALID);
  });

  it('refuses a write replayed within the window (403202), and takes it again after the window', async () => {
    h = await startSimHarness({ replayWindowMs: 60_000 });
    h.stepUntil((tick) => tick.symbol === HK);
    const call = {
      method: 'POST',
      path: '/v1/trade/order',
      timestamp: '1717372901',
      body: '{"symbol":"700.HK","order_type":"LO","side":"Buy","submitted_quantity":"100","time_in_force":"Day","submitted_price":"250"}',
    };
    expect((await rawCall(h.sim, call)).json?.['code']).toBe(0);
    const replayed = await rawCall(h.sim, call);
    expect([replayed.status, replayed.json?.['code']]).toEqual([403, 403202]);
    h.clock.advanceBy(60_000);
    expect((await rawCall(h.sim, call)).json?.['code']).toBe(0);
    expect(h.sim.venue.orders().length).toBe(2);
  });

  it("refuses our client's identical submission within the same second (403202), not one a second later", async () => {
    h = await startSimHarness();
    h.stepUntil((tick) => tick.symbol === HK);
    await h.http.submitOrder(order);
    expect(await codeOf(h.http.submitOrder(order))).toBe(SIM_CODES.DUPLICATE_REQUEST);
    h.clock.advanceBy(1000);
    await h.http.submitOrder(order);
    expect(h.sim.venue.orders().length).toBe(2);
  });

  it('lets identical reads through within the same second', async () => {
    h = await startSimHarness();
    const call = { path: '/v1/asset/account', timestamp: '1717372902' };
    expect([(await rawCall(h.sim, call)).json?.['code'], (await rawCall(h.sim, call)).json?.['code']]).toEqual([0, 0]);
  });

  it('refuses an unknown app key (403203)', async () => {
    h = await startSimHarness();
    const raw = await rawCall(h.sim, { path: '/v1/asset/account', appKey: 'someone-else' });
    expect([raw.status, raw.json?.['code']]).toEqual([403, 403203]);
    const stranger = createOpenApiHttp({ ...h.config, appKey: 'someone-else' }, { clock: h.clock });
    try {
      expect(await codeOf(stranger.accountBalance())).toBe(SIM_CODES.API_KEY_ILLEGAL);
    } finally {
      await stranger.close();
    }
  });

  it('refuses an unknown access token (401004)', async () => {
    h = await startSimHarness();
    const raw = await rawCall(h.sim, { path: '/v1/asset/account', token: 'made-up-token' });
    expect([raw.status, raw.json?.['code']]).toEqual([401, 401004]);
  });

  it('refuses the access token once its lifetime is over (401003)', async () => {
    h = await startSimHarness({ tokenLifetimeMs: 3_600_000 });
    expect(await codeOf(h.http.accountBalance())).toBeUndefined();
    h.clock.advanceBy(3_600_000);
    expect(await codeOf(h.http.accountBalance())).toBe(SIM_CODES.TOKEN_EXPIRED);
    expect((await rawCall(h.sim, { path: '/v1/asset/account' })).json?.['code']).toBe(401003);
  });

  it('keeps generated credentials out of the env of another run', async () => {
    h = await startSimHarness();
    const other = await startSimHarness();
    try {
      expect(other.sim.credentials.appKey).not.toBe(h.sim.credentials.appKey);
      const crossed = createOpenApiHttp(configFromEnv({ ...h.sim.env, LONGPORT_HTTP_URL: other.sim.httpUrl }), { clock: h.clock });
      expect(await codeOf(crossed.accountBalance())).toBe(SIM_CODES.API_KEY_ILLEGAL);
      await crossed.close();
    } finally {
      await other.close();
    }
  });
});

describe('rate limits', () => {
  it('answers a burst over the per-interface limit with a 429002 envelope, per interface, until the window moves on', async () => {
    h = await startSimHarness({ limits: { http: { calls: 3, windowMs: 30_000 }, quote: false } });
    for (let call = 0; call < 3; call++) await h.http.accountBalance();
    expect(await codeOf(h.http.accountBalance())).toBe(SIM_CODES.API_RATE_LIMITED);
    const raw = await rawCall(h.sim, { path: '/v1/asset/account' });
    expect([raw.status, raw.contentType, raw.json?.['code'], raw.json?.['msg']]).toEqual([
      429,
      'application/json; charset=utf-8',
      429002,
      'rate limited: GET /v1/asset/account allows fewer calls',
    ]);
    expect(await codeOf(h.http.positions())).toBeUndefined();
    h.clock.advanceBy(30_000);
    expect(await codeOf(h.http.accountBalance())).toBeUndefined();
  });
});
