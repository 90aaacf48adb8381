// The SDK's two calls outside the contexts: token refresh, and a signed request of any path (HttpClient.request),
// next to our client's refreshToken and request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenApiHttp } from '../../../src/openapi/http/client.js';
import { HK } from '../../support/sim/candles.js';
import { startParity, type ParityHarness } from './parity-harness.js';
import { SDK_CALLS } from './sdk-calls.js';

let h: ParityHarness;

beforeAll(async () => {
  h = await startParity();
  h.stepUntil((tick) => tick.symbol === HK);
});

afterAll(async () => {
  expect(SDK_CALLS.http.filter((call) => !h.called.has(call))).toEqual([]);
  await h.close();
});

describe('the SDK and our client make the same signed HTTP calls', () => {
  it('send any request, with a query, headers or a JSON body, and get the same data', async () => {
    for (const [method, path, body] of [
      ['GET', '/v1/asset/account', undefined],
      ['GET', `/v1/asset/stock?symbol=${encodeURIComponent(HK)}`, undefined],
      ['GET', '/v1/quote/market_temperature?market=HK', undefined],
      ['POST', '/v1/watchlist/groups', { name: 'raw', securities: [HK] }],
    ] as const) {
      const sdk = await h.sdkHttp.request(method.toLowerCase(), path, { 'accept-language': 'en' }, body);
      const ours = await h.http.request({ method, path, headers: { 'accept-language': 'en' }, ...(body === undefined ? {} : { body }) });
      if (method === 'POST') expect([sdk, ours]).toEqual([{ id: '2' }, { id: '3' }]);
      else expect(ours).toEqual(sdk);
    }
    expect(await h.http.request({ method: 'GET', path: '/v1/watchlist/groups' })).toMatchObject({
      groups: [{ name: 'all' }, { name: 'raw' }, { name: 'raw' }],
    });
  });

  it('refresh the access token, and the new tokens work', async () => {
    h.record('Config.refreshAccessToken');
    const sdkToken = await h.sdkConfig.refreshAccessToken(new Date(h.clock.now() + 30 * 86_400_000));
    const ours = await h.http.refreshToken(h.clock.now() + 30 * 86_400_000);
    expect([sdkToken.length > 0, ours.token.length > 0, sdkToken === ours.token]).toEqual([true, true, false]);
    for (const accessToken of [sdkToken, ours.token]) {
      const client = createOpenApiHttp({ ...h.config, accessToken }, { clock: h.clock, retryDelaysMs: [] });
      try {
        expect((await client.accountBalance()).map((row) => row.currency)).toEqual(['HKD', 'USD']);
      } finally {
        await client.close();
      }
    }
  });
});
