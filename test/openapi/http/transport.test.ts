import { afterEach, describe, expect, it } from 'vitest';
import { parseSymbol } from '../../../src/domain/symbol.js';
import { createOpenApiHttp } from '../../../src/openapi/http/client.js';
import { BadResponseError, ServiceError, TransportError } from '../../../src/openapi/http/errors.js';
import { VirtualClock } from '../../../src/clock/virtual-clock.js';
import { failure, ok, startFakeOpenApi, type Reply } from '../../support/http/fake-openapi-server.js';
import { captureLogger, configFor, startHarness, TEST_SECRET, TEST_TOKEN, type Harness } from '../../support/http/client-harness.js';
import { balanceRow } from '../../support/http/wire-samples.js';
import { Price, Quantity } from '../../../src/domain/index.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const order = {
  symbol: parseSymbol('700.HK'),
  side: 'Buy',
  orderType: 'LO',
  quantity: Quantity.of('200'),
  price: Price.of('50'),
  timeInForce: 'Day',
} as const;

/** Answers with `first` for the first `times` calls, then with `then`. */
function sequence(times: number, first: Reply, then: Reply): () => Reply {
  let calls = 0;
  return () => (calls++ < times ? first : then);
}

describe('the HTTP transport', () => {
  it('backs off 100 then 200 ms on 429 and retries a GET until it succeeds', async () => {
    harness = await startHarness({ 'GET /v1/asset/account': sequence(2, failure(429002, 'too many', 429), ok({ list: [balanceRow] })) });
    const started = harness.clock.now();
    const balances = await harness.run(harness.client.accountBalance());
    expect(balances).toHaveLength(1);
    expect(harness.server.requests).toHaveLength(3);
    expect(harness.clock.now() - started).toBe(300);
    expect(harness.logs()).toContain('rate limited by the service; retrying');
  });

  it('retries a plain-text 429 like the SDK does', async () => {
    harness = await startHarness({ 'GET /v1/asset/account': sequence(1, { status: 429, text: 'Too Many Requests' }, ok({ list: [] })) });
    await harness.run(harness.client.accountBalance());
    expect(harness.server.requests).toHaveLength(2);
  });

  it('gives up after five retries and reports the 429 as retryable', async () => {
    harness = await startHarness({ 'GET /v1/asset/account': () => failure(429001, 'slow down', 429) });
    const error = (await harness.run(harness.client.accountBalance()).catch((caught: unknown) => caught)) as ServiceError;
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.message).toBe('rate limited (IP) (429001)');
    expect(error.retryable).toBe(true);
    expect(harness.server.requests).toHaveLength(6);
  });

  it('never retries an order submission on 429 and marks it not retryable', async () => {
    harness = await startHarness({ 'POST /v1/trade/order': () => failure(429002, 'too many', 429) });
    const error = (await harness.run(harness.client.submitOrder(order)).catch((caught: unknown) => caught)) as ServiceError;
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.code).toBe('API_RATE_LIMITED');
    expect(error.retryable).toBe(false);
    expect(harness.server.requests).toHaveLength(1);
  });

  it('never retries replace, cancel or submit-by-id on 429', async () => {
    harness = await startHarness({
      'PUT /v1/trade/order': () => failure(429002, 'x', 429),
      'DELETE /v1/trade/order': () => failure(429002, 'x', 429),
      'POST /v1/trade/order/submit': () => failure(429002, 'x', 429),
    });
    await expect(harness.run(harness.client.replaceOrder('1', { quantity: Quantity.of('1') }))).rejects.toThrow(ServiceError);
    await expect(harness.run(harness.client.cancelOrder('1'))).rejects.toThrow(ServiceError);
    await expect(harness.run(harness.client.submitOrderById('1'))).rejects.toThrow(ServiceError);
    expect(harness.server.requests.map((request) => request.method)).toEqual(['PUT', 'DELETE', 'POST']);
  });

  it('keeps the trace id and HTTP status of a service error', async () => {
    harness = await startHarness({ 'GET /v1/risk/margin-ratio': () => failure(500000, 'boom', 500) });
    const error = (await harness.run(harness.client.marginRatio(parseSymbol('700.HK'))).catch((caught: unknown) => caught)) as ServiceError;
    expect(error.code).toBe('INTERNAL_ERROR');
    expect(error.httpStatus).toBe(500);
    expect(error.traceId).toBe('trace-1');
    expect(error.request).toBe('GET /v1/risk/margin-ratio');
  });

  it('reports a server that rejects our signature as "signature invalid (403201)"', async () => {
    const server = await startFakeOpenApi({
      appSecret: 'the-real-secret',
      accessToken: TEST_TOKEN,
      routes: { 'GET /v1/asset/account': () => ok({ list: [] }) },
    });
    const client = createOpenApiHttp(configFor(server.url), { clock: new VirtualClock(0) });
    try {
      const error = (await client.accountBalance().catch((caught: unknown) => caught)) as ServiceError;
      expect(error.code).toBe('SIGNATURE_INVALID');
      expect(error.message).toMatch(/^signature invalid \(403201\)/);
      expect(error.retryable).toBe(false);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('turns a non-JSON success body into a BadResponseError', async () => {
    harness = await startHarness({ 'GET /v1/socket/token': () => ({ text: 'maintenance' }) });
    await expect(harness.run(harness.client.socketToken())).rejects.toThrow(BadResponseError);
  });

  it('times out a call that gets no answer, on the injected clock', async () => {
    harness = await startHarness({ 'GET /v1/asset/account': () => ({ hang: true }) }, { client: { timeoutMs: 5_000 } });
    const pending = harness.client.accountBalance().catch((caught: unknown) => caught);
    await waitFor(() => harness!.server.requests.length === 1);
    await harness.clock.advanceByAsync(5_000);
    const error = (await pending) as TransportError;
    expect(error).toBeInstanceOf(TransportError);
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toBe('GET /v1/asset/account timed out after 5000 ms');
    expect(error.retryable).toBe(true);
  });

  it('warns that a timed-out submission may still have been placed', async () => {
    harness = await startHarness({ 'POST /v1/trade/order': () => ({ hang: true }) }, { client: { timeoutMs: 5_000 } });
    const pending = harness.client.submitOrder(order).catch((caught: unknown) => caught);
    await waitFor(() => harness!.server.requests.length === 1);
    await harness.clock.advanceByAsync(5_000);
    const error = (await pending) as TransportError;
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/^POST \/v1\/trade\/order timed out after 5000 ms; it may still have taken effect/);
    expect(harness.server.requests).toHaveLength(1);
  });

  it('fails a call in flight at once, not retryable, when closed with abortInFlight (a run whose link goes away)', async () => {
    harness = await startHarness({ 'POST /v1/trade/order': () => ({ hang: true }) }, { client: { timeoutMs: 5_000 } });
    const pending = harness.client.submitOrder(order).catch((caught: unknown) => caught);
    await waitFor(() => harness!.server.requests.length === 1);
    const closedAt = harness.clock.now();

    await harness.client.close({ abortInFlight: true });

    const error = (await pending) as TransportError;
    expect(error).toBeInstanceOf(TransportError);
    expect(error.code).toBe('CLIENT_CLOSED');
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(
      /^POST \/v1\/trade\/order: the client was closed while the call was in flight; it may still have taken effect/,
    );
    expect(harness.clock.now()).toBe(closedAt);
    await expect(harness.client.accountBalance()).rejects.toMatchObject({ code: 'CLIENT_CLOSED', retryable: false });
  });

  it('reports a refused connection as CONNECTION_FAILED', async () => {
    const server = await startFakeOpenApi({ appSecret: TEST_SECRET, accessToken: TEST_TOKEN });
    const url = server.url;
    await server.close();
    const client = createOpenApiHttp(configFor(url), { clock: new VirtualClock(0) });
    try {
      const error = (await client.accountBalance().catch((caught: unknown) => caught)) as TransportError;
      expect(error).toBeInstanceOf(TransportError);
      expect(error.code).toBe('CONNECTION_FAILED');
      expect(error.message).toMatch(/^GET \/v1\/asset\/account failed: ECONNREFUSED/);
    } finally {
      await client.close();
    }
  });

  it('refuses a base URL that is not http(s), naming the variable', () => {
    expect(() => createOpenApiHttp(configFor('ftp://127.0.0.1'), { clock: new VirtualClock(0) })).toThrow(
      'LONGPORT_HTTP_URL: "ftp://127.0.0.1" is not an http(s) URL',
    );
    expect(() => createOpenApiHttp(configFor('localhost:8080x'), { clock: new VirtualClock(0) })).toThrow('LONGPORT_HTTP_URL');
  });

  it('keeps a path prefix of the base URL and signs the full path', async () => {
    const server = await startFakeOpenApi({
      appSecret: TEST_SECRET,
      accessToken: TEST_TOKEN,
      routes: { 'GET /gateway/v1/socket/token': () => ok({ otp: 'o', limit: 1, online: 0 }) },
    });
    const client = createOpenApiHttp(configFor(`${server.url}/gateway/`), { clock: new VirtualClock(0) });
    try {
      expect(await client.socketToken()).toEqual({ otp: 'o', limit: 1, online: 0 });
      expect(server.requests[0]!.signatureValid).toBe(true);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('paces two calls of one interface 20 ms apart on virtual time', async () => {
    harness = await startHarness({ 'GET /v1/asset/account': () => ok({ list: [] }) });
    const started = harness.clock.now();
    await harness.run(Promise.all([harness.client.accountBalance(), harness.client.accountBalance()]));
    expect(harness.clock.now() - started).toBe(20);
    const [first, second] = harness.server.requests;
    expect(first!.signatureValid && second!.signatureValid).toBe(true);
  });

  it('reuses keep-alive connections instead of opening one per call', async () => {
    harness = await startHarness({ 'GET /v1/socket/token': () => ok({ otp: 'o', limit: 1, online: 0 }) });
    for (let call = 0; call < 5; call += 1) await harness.run(harness.client.socketToken());
    const ports = harness.server.requests.map((request) => request.remotePort);
    expect(ports).toHaveLength(5);
    expect(new Set(ports).size).toBeLessThan(5);
  });
});

describe('secrets', () => {
  it('never writes the app secret, access token or signature to the logs', async () => {
    harness = await startHarness({
      'GET /v1/asset/account': () => ok({ list: [balanceRow] }),
      'POST /v1/trade/order': () => failure(400001, `bad request from ${TEST_TOKEN} with ${TEST_SECRET}`, 400),
    });
    await harness.run(harness.client.accountBalance());
    const error = (await harness.run(harness.client.submitOrder(order)).catch((caught: unknown) => caught)) as Error;
    const signature = String(harness.server.requests[0]!.headers['x-api-signature']).split('Signature=')[1]!;
    const logs = harness.logs();
    expect(logs).toContain('GET /v1/asset/account');
    expect(error.message).toBe('bad request from [redacted] with [redacted] (400001)');
    for (const secret of [TEST_SECRET, TEST_TOKEN, signature]) {
      expect(logs).not.toContain(secret);
      expect(error.message).not.toContain(secret);
      expect(String(error.stack)).not.toContain(secret);
    }
  });

  it('keeps secrets out of a log line even when a caller logs the config', () => {
    const capture = captureLogger();
    capture.logger.info({ config: configFor('http://127.0.0.1:1') }, 'starting');
    expect(capture.text()).not.toContain(TEST_SECRET);
    expect(capture.text()).not.toContain(TEST_TOKEN);
  });
});

describe('token lifetime', () => {
  const now = Date.parse('2024-05-06T00:00:00Z');

  it('warns when the token expires within 7 days', async () => {
    harness = await startHarness({}, { startMs: now, config: { tokenExpiresAt: now + 3 * 86_400_000 } });
    expect(harness.logs()).toContain('the access token expires in 3 day(s), at 2024-05-09T00:00:00.000Z: run `trader token refresh`');
  });

  it('says so when the token has already expired', async () => {
    harness = await startHarness({}, { startMs: now, config: { tokenExpiresAt: now - 1 } });
    expect(harness.logs()).toContain('the access token expired at');
  });

  it('stays quiet for a token with more than 7 days left or an unknown expiry', async () => {
    harness = await startHarness({}, { startMs: now, config: { tokenExpiresAt: now + 8 * 86_400_000 } });
    expect(harness.logs()).not.toContain('access token');
    await harness.close();
    harness = await startHarness({}, { startMs: now });
    expect(harness.logs()).not.toContain('access token');
  });
});

/** Waits (on real I/O, not on time) until the condition holds. */
async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}
