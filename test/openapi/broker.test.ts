import { afterEach, describe, expect, it } from 'vitest';
import type { OrderRequest } from '../../src/domain/order.js';
import type { SecuritySymbol } from '../../src/domain/symbol.js';
import { OrderRefusedError } from '../../src/execution/broker.js';
import { type ServiceError, TransportError } from '../../src/openapi/http/errors.js';
import { brokerContract } from '../execution/broker-contract.js';
import { OTHER, SYMBOL, injectFaults, startBrokerHarness, type BrokerHarness } from '../support/openapi/broker-harness.js';
import { Price, Quantity } from '../../src/domain/index.js';

brokerContract('OpenAPI broker (HTTP + trade connection, against the simulator on loopback)', async ({ cash, price }) => {
  const harness = await startBrokerHarness({ cash, price });
  return {
    broker: harness.broker,
    symbol: SYMBOL,
    otherSymbol: OTHER,
    async trade(next) {
      harness.trade(next);
    },
    settle: () => harness.settle(),
    close: () => harness.close(),
  };
});

const order = (overrides: Partial<OrderRequest> = {}): OrderRequest => ({
  symbol: SYMBOL,
  side: 'Buy',
  orderType: 'LO',
  quantity: Quantity.of(10),
  price: Price.of(90),
  timeInForce: 'Day',
  remark: 'refusal-test',
  ...overrides,
});

let harness: BrokerHarness | undefined;

afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('OpenAPI broker: refusals and doubt on submit', () => {
  it('reports an invalid-parameter answer (HTTP 400) as a refusal carrying the service code', async () => {
    harness = await startBrokerHarness();

    const error = await failureOf(harness.broker.submitOrder(order({ symbol: 'NOT A SYMBOL' as SecuritySymbol })));

    expect(error).toBeInstanceOf(OrderRefusedError);
    expect((error as OrderRefusedError).details).toMatchObject({ serviceCode: 400001, httpStatus: 400 });
    expect((error as Error).message).toMatch(/^the service refused the order: .*symbol/);
    expect(harness.sim.venue.orders()).toEqual([]);
  });

  it('reports an authentication failure (401) as a refusal: the service never looked at the order', async () => {
    harness = await startBrokerHarness();
    const stranger = harness.brokerWith({}, { accessToken: 'not-a-token' });

    const error = await failureOf(stranger.submitOrder(order()));

    expect(error).toBeInstanceOf(OrderRefusedError);
    expect((error as OrderRefusedError).details).toMatchObject({ serviceCode: 401004 });
  });

  it('leaves a 500 in doubt: the error passes through, never as a refusal', async () => {
    harness = await startBrokerHarness();
    injectFaults(harness.sim, { http5xxRate: 1 });

    const error = await failureOf(harness.broker.submitOrder(order()));

    expect(error).not.toBeInstanceOf(OrderRefusedError);
    expect([(error as ServiceError).serviceCode, (error as ServiceError).httpStatus]).toEqual([500000, 500]);
  });

  it('leaves an injected plain-text 429 in doubt and does not repeat the submission', async () => {
    harness = await startBrokerHarness();
    const retrying = harness.brokerWith({ retryDelaysMs: [1, 1, 1] });
    injectFaults(harness.sim, { http429Rate: 1 });

    const error = await failureOf(retrying.submitOrder(order()));

    expect(error).toBeInstanceOf(TransportError);
    expect(error).not.toBeInstanceOf(OrderRefusedError);
    expect((error as TransportError).httpStatus).toBe(429);
  });

  it("leaves the service's rate-limit answer (429002) in doubt", async () => {
    harness = await startBrokerHarness({ sim: { limits: { http: { calls: 1, windowMs: 30_000 }, quote: false } } });
    await harness.broker.submitOrder(order({ remark: 'first' }));

    const error = await failureOf(harness.broker.submitOrder(order({ remark: 'second' })));

    expect(error).not.toBeInstanceOf(OrderRefusedError);
    expect((error as ServiceError).serviceCode).toBe(429002);
  });

  it('leaves a duplicate-request answer (403202) in doubt: the identical first request did place the order', async () => {
    harness = await startBrokerHarness();
    await harness.broker.submitOrder(order({ remark: 'same' }));

    const error = await failureOf(harness.broker.submitOrder(order({ remark: 'same' })));

    expect(error).not.toBeInstanceOf(OrderRefusedError);
    expect((error as ServiceError).serviceCode).toBe(403202);
    expect(harness.sim.venue.orders().map((placed) => placed.remark)).toEqual(['same']);
  });

  it('leaves a timeout in doubt even though the order landed (the answer was lost)', async () => {
    harness = await startBrokerHarness();
    const impatient = harness.brokerWith({ timeoutMs: 1_000 });
    injectFaults(harness.sim, { latencyMs: 60_000 });
    const landed = new Promise((resolve) => harness!.sim.venue.onOrderUpdate(resolve));
    const submitted = failureOf(impatient.submitOrder(order({ remark: 'lost-answer' })));
    await landed;

    await harness.clock.advanceByAsync(1_000);

    const error = await submitted;
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).code).toBe('TIMEOUT');
    expect(harness.sim.venue.orders().map((placed) => placed.remark)).toEqual(['lost-answer']);
  });
});
