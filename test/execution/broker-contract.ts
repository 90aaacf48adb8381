// The one contract every Broker implementation passes (DESIGN.md: "one contract test suite runs against
// every implementation"): the in-process backtest broker, and the OpenAPI broker against the simulator.
// Call brokerContract(name, create) from a test file; `create` builds a fresh broker for each test.
import type { Subscription } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { OrderRequest, OrderUpdate } from '../../src/domain/order.js';
import { isOpen } from '../../src/domain/order-status.js';
import type { SecuritySymbol } from '../../src/domain/symbol.js';
import { OrderRefusedError, type Broker } from '../../src/execution/broker.js';
import { Price, Quantity } from '../../src/domain/index.js';

export interface BrokerContractOptions {
  /** Starting cash in the currency of `symbol`'s market; the account holds nothing else. */
  readonly cash: number;
  /** The price the market of `symbol` stands at when the harness is handed over. */
  readonly price: number;
}

/**
 * A broker on a venue the test can move. The venue must charge no fees, apply no slippage, treat the
 * account as a cash account (margin factors 1) and accept orders at any time of day.
 */
export interface BrokerContractHarness {
  readonly broker: Broker;
  /** A tradable symbol, priced at `options.price`. */
  readonly symbol: SecuritySymbol;
  /** A second symbol of the same market, also priced, that the account never trades. */
  readonly otherSymbol: SecuritySymbol;
  /** The market trades `symbol` at `price` (resting orders it reaches fill); resolves once the venue took it. */
  trade(price: number): Promise<void>;
  /** Resolves once every order update caused so far has reached `broker.orderUpdates`. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

export type BrokerContractFactory = (options: BrokerContractOptions) => Promise<BrokerContractHarness>;

const OPTIONS: BrokerContractOptions = { cash: 100_000, price: 100 };

export function brokerContract(name: string, create: BrokerContractFactory): void {
  describe(`Broker contract: ${name}`, () => {
    let harness: BrokerContractHarness | undefined;
    let subscription: Subscription | undefined;
    let updates: OrderUpdate[] = [];

    async function open(): Promise<BrokerContractHarness & { readonly updates: () => readonly OrderUpdate[] }> {
      harness = await create(OPTIONS);
      updates = [];
      subscription = harness.broker.orderUpdates.subscribe((update) => updates.push(update));
      return Object.assign(harness, { updates: () => updates });
    }

    function request(symbol: SecuritySymbol, fields: Partial<OrderRequest> & Pick<OrderRequest, 'side' | 'quantity'>): OrderRequest {
      return { symbol, orderType: fields.price === undefined ? 'MO' : 'LO', timeInForce: 'GTC', ...fields };
    }

    afterEach(async () => {
      subscription?.unsubscribe();
      await harness?.close();
      harness = undefined;
    });

    it('accepts a limit order and reports it open with the requested fields and remark', async () => {
      const { broker, symbol, settle } = await open();

      const { orderId } = await broker.submitOrder(
        request(symbol, { side: 'Buy', quantity: Quantity.of(10), price: Price.of(90), remark: 'contract-accept' }),
      );
      await settle();

      const order = await broker.orderDetail(orderId);
      expect(order.orderId).toBe(orderId);
      expect(isOpen(order.status)).toBe(true);
      expect(order.symbol).toBe(symbol);
      expect(order.side).toBe('Buy');
      expect(order.orderType).toBe('LO');
      expect(order.quantity.toFixed()).toBe('10');
      expect(order.price?.toFixed()).toBe('90');
      expect(order.executedQuantity.toFixed()).toBe('0');
      expect(order.remark).toBe('contract-accept');
      const today = await broker.todayOrders({ symbol });
      expect(today.map((one) => one.orderId)).toContain(orderId);
    });

    it('lists orders of a symbol submitted in a time range in its history list', async () => {
      const { broker, symbol, settle } = await open();
      const { orderId } = await broker.submitOrder(
        request(symbol, { side: 'Buy', quantity: Quantity.of(10), price: Price.of(90), remark: 'contract-history' }),
      );
      await settle();
      const { submittedAt } = await broker.orderDetail(orderId);

      const since = await broker.historyOrders({ symbol, startAt: submittedAt });
      const before = await broker.historyOrders({ symbol, endAt: submittedAt });

      expect(since.map((order) => [order.orderId, order.remark])).toEqual([[orderId, 'contract-history']]);
      expect(before).toEqual([]);
    });

    it('pushes each change of an order with its order id and remark', async () => {
      const { broker, symbol, settle, updates } = await open();

      const { orderId } = await broker.submitOrder(
        request(symbol, { side: 'Buy', quantity: Quantity.of(10), price: Price.of(90), remark: 'contract-push' }),
      );
      await settle();

      const mine = updates().filter((update) => update.orderId === orderId);
      expect(mine.length).toBeGreaterThan(0);
      expect(mine.every((update) => update.remark === 'contract-push')).toBe(true);
      expect(isOpen(mine.at(-1)!.status)).toBe(true);
    });

    it('fills a market buy on the next trade, then reports the fill, the position and the cash it cost', async () => {
      const { broker, symbol, trade, settle, updates } = await open();

      const { orderId } = await broker.submitOrder(request(symbol, { side: 'Buy', quantity: Quantity.of(10), remark: 'contract-fill' }));
      await trade(101);
      await settle();

      const order = await broker.orderDetail(orderId);
      expect(order.status).toBe('FilledStatus');
      expect(order.executedQuantity.toFixed()).toBe('10');
      expect(order.executedPrice?.toFixed()).toBe('101');
      const last = updates()
        .filter((update) => update.orderId === orderId)
        .at(-1)!;
      expect(last.status).toBe('FilledStatus');
      expect(last.executedQuantity.toFixed()).toBe('10');
      const [position] = await broker.positions([symbol]);
      expect(position?.quantity.toFixed()).toBe('10');
      expect(position?.costPrice.toFixed()).toBe('101');
      const balances = await broker.accountBalance();
      expect(balances.find((balance) => balance.totalCash.lt(OPTIONS.cash))?.totalCash.toFixed()).toBe('98990');
    });

    it('lists positions only for the symbols asked for', async () => {
      const { broker, symbol, otherSymbol, trade, settle } = await open();
      await broker.submitOrder(request(symbol, { side: 'Buy', quantity: Quantity.of(5), remark: 'contract-positions' }));
      await trade(100);
      await settle();

      expect((await broker.positions([symbol])).map((position) => position.symbol)).toEqual([symbol]);
      expect(await broker.positions([otherSymbol])).toEqual([]);
      expect((await broker.positions()).map((position) => position.symbol)).toContain(symbol);
    });

    it('cancels an open order and pushes the cancellation', async () => {
      const { broker, symbol, settle, updates } = await open();
      const { orderId } = await broker.submitOrder(
        request(symbol, { side: 'Buy', quantity: Quantity.of(10), price: Price.of(80), remark: 'contract-cancel' }),
      );
      await settle();

      await broker.cancelOrder(orderId);
      await settle();

      expect((await broker.orderDetail(orderId)).status).toBe('CanceledStatus');
      expect(
        updates()
          .filter((update) => update.orderId === orderId)
          .at(-1)?.status,
      ).toBe('CanceledStatus');
      const working = await broker.todayOrders({ symbol, statuses: ['NewStatus'] });
      expect(working.map((one) => one.orderId)).not.toContain(orderId);
    });

    it('replaces the quantity and price of an open order', async () => {
      const { broker, symbol, settle } = await open();
      const { orderId } = await broker.submitOrder(
        request(symbol, { side: 'Buy', quantity: Quantity.of(10), price: Price.of(80), remark: 'contract-replace' }),
      );
      await settle();

      await broker.replaceOrder(orderId, { quantity: Quantity.of(20), price: Price.of(85) });
      await settle();

      const order = await broker.orderDetail(orderId);
      expect(order.quantity.toFixed()).toBe('20');
      expect(order.price?.toFixed()).toBe('85');
      expect(isOpen(order.status)).toBe(true);
    });

    it('refuses an order the account cannot pay for, leaving no working order behind', async () => {
      const { broker, symbol, settle } = await open();

      const outcome = await broker
        .submitOrder(request(symbol, { side: 'Buy', quantity: Quantity.of(1_000_000), price: Price.of(100), remark: 'contract-refuse' }))
        .then(
          (accepted) => accepted,
          (error: unknown) => error,
        );
      await settle();

      if (outcome instanceof Error) {
        expect(outcome).toBeInstanceOf(OrderRefusedError);
      } else {
        expect((await broker.orderDetail((outcome as { orderId: string }).orderId)).status).toBe('RejectedStatus');
      }
      const working = (await broker.todayOrders({ symbol })).filter((order) => order.remark === 'contract-refuse' && isOpen(order.status));
      expect(working).toEqual([]);
    });

    it('answers calls about unknown orders with a rejected promise, never a synchronous throw', async () => {
      const { broker } = await open();

      let cancel: Promise<void> | undefined;
      let detail: Promise<unknown> | undefined;
      expect(() => {
        cancel = broker.cancelOrder('123456789');
        detail = broker.orderDetail('123456789');
      }).not.toThrow();

      await expect(cancel).rejects.toBeInstanceOf(Error);
      await expect(detail).rejects.toBeInstanceOf(Error);
    });

    it('estimates the buy limit from cash and price, and nothing to sell without a position', async () => {
      const { broker, symbol } = await open();

      const buy = await broker.estimateBuyLimit({ symbol, orderType: 'LO', side: 'Buy', price: Price.of(100) });
      const sell = await broker.estimateBuyLimit({ symbol, orderType: 'LO', side: 'Sell', price: Price.of(100) });

      expect(buy.cashMaxQty.toFixed()).toBe('1000');
      expect(buy.marginMaxQty.gte(buy.cashMaxQty)).toBe(true);
      expect(sell.cashMaxQty.toFixed()).toBe('0');
    });

    it('reports the cash account in balances and margin factors between 0 and 1', async () => {
      const { broker, symbol } = await open();

      const [balance] = await broker.accountBalance();
      const ratio = await broker.marginRatio(symbol);

      expect(balance?.totalCash.toFixed()).toBe(String(OPTIONS.cash));
      expect(balance?.netAssets.toFixed()).toBe(String(OPTIONS.cash));
      expect(balance?.buyPower.toFixed()).toBe(String(OPTIONS.cash));
      for (const factor of [ratio.imFactor, ratio.mmFactor, ratio.fmFactor]) expect(factor.gt(0) && factor.lte(1)).toBe(true);
    });
  });
}
