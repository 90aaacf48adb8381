import { describe, expect, it } from 'vitest';
import { Money, fromLocal, parseSymbol, type AccountBalance, type OrderRequest } from '../../src/domain/index.js';
import { FRESH_EQUITY_WATCH, evaluateRisk, observeEquity, type RiskLimits, type RiskSnapshot } from '../../src/risk/index.js';
import { Fixed, Price, Quantity } from '../../src/domain/index.js';

const AAPL = parseSymbol('AAPL.US');
// Wednesday 2024-01-10 10:00 in New York.
const MARKET_OPEN = fromLocal({ year: 2024, month: 1, day: 10, hour: 10, minute: 0, second: 0 }, 'America/New_York');

function order(side: 'Buy' | 'Sell', quantity: number, price?: number): OrderRequest {
  return {
    symbol: AAPL,
    side,
    orderType: price === undefined ? 'MO' : 'LO',
    quantity: Quantity.of(quantity),
    timeInForce: 'Day',
    ...(price === undefined ? {} : { price: Price.of(price) }),
  };
}

function account(buyPower: number, netAssets = buyPower): AccountBalance {
  const zero = Money.zero('USD');
  return {
    currency: 'USD',
    totalCash: Money.of(buyPower, 'USD'),
    maxFinanceAmount: zero,
    remainingFinanceAmount: zero,
    riskLevel: 0,
    marginCall: zero,
    netAssets: Money.of(netAssets, 'USD'),
    initMargin: zero,
    maintenanceMargin: zero,
    buyPower: Money.of(buyPower, 'USD'),
    cashInfos: [],
    frozenTransactionFees: [],
  };
}

function snapshot(overrides: Partial<RiskSnapshot> = {}): RiskSnapshot {
  return {
    time: MARKET_OPEN,
    position: Quantity.ZERO,
    pendingQuantity: Quantity.ZERO,
    referencePrice: Price.of(100),
    account: account(100_000),
    buyLimit: { cashMaxQty: Quantity.of(1000), marginMaxQty: Quantity.of(1000) },
    marginRatio: { imFactor: Fixed.of(1), mmFactor: Fixed.of(0.5), fmFactor: Fixed.of(0.3) },
    recentOrderTimes: [],
    equity: FRESH_EQUITY_WATCH,
    ...overrides,
  };
}

const decide = (request: OrderRequest, overrides: Partial<RiskSnapshot> = {}, limits: RiskLimits = {}) =>
  evaluateRisk(request, snapshot(overrides), limits);

describe('risk engine', () => {
  it('approves an order within every limit', () => {
    expect(decide(order('Buy', 100), {}, { maxOrderNotional: Fixed.of(20_000), maxPositionPerSymbol: Quantity.of(500) })).toEqual({
      kind: 'approved',
    });
  });

  it('denies a non-positive quantity', () => {
    expect(decide(order('Buy', 0))).toMatchObject({ kind: 'denied', code: 'INVALID_QUANTITY' });
  });

  it('denies a symbol outside allowedSymbols', () => {
    expect(decide(order('Buy', 1), {}, { allowedSymbols: [parseSymbol('MSFT.US')] })).toMatchObject({
      code: 'SYMBOL_NOT_ALLOWED',
      figures: { symbol: 'AAPL.US' },
    });
  });

  it('denies outside the allowed sessions, in the market local time', () => {
    const evening = MARKET_OPEN + 8 * 3_600_000; // 18:00 New York
    const saturday = MARKET_OPEN + 3 * 86_400_000;

    expect(decide(order('Buy', 1), { time: evening }, { allowedSessions: ['regular'] })).toMatchObject({ code: 'OUTSIDE_ALLOWED_SESSION' });
    expect(decide(order('Buy', 1), { time: saturday }, { allowedSessions: ['regular'] })).toMatchObject({
      code: 'OUTSIDE_ALLOWED_SESSION',
    });
    expect(decide(order('Buy', 1), {}, { allowedSessions: ['regular'] })).toEqual({ kind: 'approved' });
    expect(decide(order('Buy', 1), {}, { allowedSessions: [{ begin: 1030, end: 1500 }] })).toMatchObject({
      code: 'OUTSIDE_ALLOWED_SESSION',
    });
  });

  it('denies once maxOrdersPerMinute orders went out in the last minute', () => {
    const recent = [MARKET_OPEN - 70_000, MARKET_OPEN - 30_000, MARKET_OPEN - 1_000];

    expect(decide(order('Buy', 1), { recentOrderTimes: recent }, { maxOrdersPerMinute: 2 })).toEqual({
      kind: 'denied',
      code: 'ORDER_RATE_EXCEEDED',
      message: '2 orders in the last minute, the limit is 2',
      figures: { ordersLastMinute: '2', limit: '2' },
    });
    expect(decide(order('Buy', 1), { recentOrderTimes: recent }, { maxOrdersPerMinute: 3 })).toEqual({ kind: 'approved' });
  });

  it('denies an order above maxOrderNotional, valued at the limit price or the last price', () => {
    expect(decide(order('Buy', 101), {}, { maxOrderNotional: Fixed.of(10_000) })).toMatchObject({
      code: 'EXCEEDS_MAX_NOTIONAL',
      figures: { notional: '10100', limit: '10000', price: '100' },
    });
    expect(decide(order('Buy', 101, 99), { referencePrice: Price.of(99) }, { maxOrderNotional: Fixed.of(10_000) })).toEqual({
      kind: 'approved',
    });
  });

  it('denies a position above maxPositionPerSymbol, counting open orders', () => {
    expect(
      decide(
        order('Buy', 100),
        { position: Quantity.of(300), pendingQuantity: Quantity.of(150) },
        { maxPositionPerSymbol: Quantity.of(500) },
      ),
    ).toMatchObject({
      code: 'EXCEEDS_MAX_POSITION',
      figures: { position: '300', pending: '150', projected: '550', limit: '500' },
    });
  });

  it("denies a quantity above the broker's buy limit", () => {
    expect(decide(order('Buy', 600), { buyLimit: { cashMaxQty: Quantity.of(400), marginMaxQty: Quantity.of(500) } })).toMatchObject({
      code: 'EXCEEDS_BUY_LIMIT',
      figures: { quantity: '600', cashMaxQty: '400', marginMaxQty: '500' },
    });
  });

  it('denies when initial margin (im_factor × notional) exceeds buy power', () => {
    const ratio = { imFactor: Fixed.of(1.5), mmFactor: Fixed.of(1), fmFactor: Fixed.of(1) };

    expect(decide(order('Buy', 100), { marginRatio: ratio, account: account(12_000) })).toEqual({
      kind: 'denied',
      code: 'INSUFFICIENT_MARGIN',
      message: 'initial margin 15000 (1.5 × 10000) exceeds buy power 12000',
      figures: { required: '15000', available: '12000', imFactor: '1.5', notional: '10000' },
    });
  });

  it('denies a buy whose value exceeds buy power', () => {
    expect(decide(order('Buy', 100), { account: account(9_999.5) })).toEqual({
      kind: 'denied',
      code: 'EXCEEDS_BUY_POWER',
      message: 'order value 10000 exceeds buy power 9999.5',
      figures: { required: '10000', available: '9999.5' },
    });
  });

  it('checks a short sale against margin, not buy power', () => {
    const ratio = { imFactor: Fixed.of(0.5), mmFactor: Fixed.of(0.3), fmFactor: Fixed.of(0.2) };

    expect(decide(order('Sell', 100), { marginRatio: ratio, account: account(6_000) })).toEqual({ kind: 'approved' });
    expect(decide(order('Sell', 100), { marginRatio: ratio, account: account(4_000) })).toMatchObject({ code: 'INSUFFICIENT_MARGIN' });
  });

  it('never blocks a sell that reduces a position with buy-power, margin, limit or kill-switch checks', () => {
    const broke = {
      account: account(0),
      buyLimit: { cashMaxQty: Quantity.ZERO, marginMaxQty: Quantity.ZERO },
      position: Quantity.of(100),
      equity: tripped(),
    };

    expect(decide(order('Sell', 100), broke, { maxPositionPerSymbol: Quantity.of(10), dailyLossLimit: Fixed.of(1) })).toEqual({
      kind: 'approved',
    });
    expect(decide(order('Sell', 100), { ...broke, account: undefined, buyLimit: undefined, marginRatio: undefined })).toEqual({
      kind: 'approved',
    });
  });

  it('approves a sell the broker lets you make: its estimate for a sell counts the shares held and any it lends', () => {
    const lends50 = { position: Quantity.of(100), buyLimit: { cashMaxQty: Quantity.of(100), marginMaxQty: Quantity.of(150) } };

    expect(decide(order('Sell', 150), lends50)).toEqual({ kind: 'approved' });
    expect(decide(order('Sell', 151), lends50)).toEqual({
      kind: 'denied',
      code: 'EXCEEDS_SELL_LIMIT',
      message: 'sell 151 AAPL.US: the broker lets you sell at most 150 (position 100)',
      figures: { quantity: '151', position: '100', sellable: '150' },
    });
  });

  it('denies selling while flat as SHORT_SELLING_NOT_ALLOWED when the account cannot sell short', () => {
    const flat = { buyLimit: { cashMaxQty: Quantity.ZERO, marginMaxQty: Quantity.ZERO } };

    expect(decide(order('Sell', 10), flat)).toEqual({
      kind: 'denied',
      code: 'SHORT_SELLING_NOT_ALLOWED',
      message: 'sell 10 AAPL.US: no position, and short selling is not allowed',
      figures: { quantity: '10', position: '0', sellable: '0' },
    });
    // Named for the missing position even when a position limit would also refuse the short.
    expect(decide(order('Sell', 10), flat, { maxPositionPerSymbol: Quantity.of(5) })).toMatchObject({ code: 'SHORT_SELLING_NOT_ALLOWED' });
  });

  it('denies selling more to a short position the broker lends no more shares to as EXCEEDS_SELL_LIMIT', () => {
    // Already short 438: the account sells short, but its margin is used up.
    const short = { position: Quantity.of(-438), buyLimit: { cashMaxQty: Quantity.ZERO, marginMaxQty: Quantity.ZERO } };

    expect(decide(order('Sell', 1), short)).toEqual({
      kind: 'denied',
      code: 'EXCEEDS_SELL_LIMIT',
      message: 'sell 1 AAPL.US: the broker lets you sell at most 0 (position -438)',
      figures: { quantity: '1', position: '-438', sellable: '0' },
    });
  });

  it('denies a sell the broker lends no shares for as EXCEEDS_SELL_LIMIT when the account may sell short: no margin is left', () => {
    const noMargin = { account: account(0), shortSelling: true, buyLimit: { cashMaxQty: Quantity.ZERO, marginMaxQty: Quantity.ZERO } };

    expect(decide(order('Sell', 10), noMargin)).toEqual({
      kind: 'denied',
      code: 'EXCEEDS_SELL_LIMIT',
      message:
        'sell 10 AAPL.US: the broker lets you sell at most 0 (position 0): short selling is on, but no margin is left for it (buy power 0)',
      figures: { quantity: '10', position: '0', sellable: '0', buyPower: '0' },
    });
    const long = { ...noMargin, position: Quantity.of(100), buyLimit: { cashMaxQty: Quantity.of(100), marginMaxQty: Quantity.of(100) } };
    expect(decide(order('Sell', 150), long)).toMatchObject({ code: 'EXCEEDS_SELL_LIMIT', figures: { sellable: '100', buyPower: '0' } });
    expect(decide(order('Sell', 10), { ...noMargin, account: undefined })).toMatchObject({
      code: 'EXCEEDS_SELL_LIMIT',
      message: 'sell 10 AAPL.US: the broker lets you sell at most 0 (position 0): short selling is on, but no margin is left for it',
    });
  });

  it('denies selling more than the position as SELL_EXCEEDS_POSITION when the account cannot sell short', () => {
    const long = { position: Quantity.of(100), buyLimit: { cashMaxQty: Quantity.of(100), marginMaxQty: Quantity.of(100) } };

    expect(decide(order('Sell', 150), long)).toEqual({
      kind: 'denied',
      code: 'SELL_EXCEEDS_POSITION',
      message: 'sell 150 AAPL.US: more than the position of 100 (the account cannot sell short)',
      figures: { quantity: '150', position: '100', sellable: '100' },
    });
  });

  it('denies an order for a symbol the broker does not know as UNKNOWN_SYMBOL, with the cause', () => {
    const unknown = {
      account: undefined,
      buyLimit: undefined,
      marginRatio: undefined,
      referencePrice: undefined,
      figuresError: { message: 'unknown symbol: no market data for AAPL.US yet', unknownSymbol: true },
    };

    expect(decide(order('Buy', 1), unknown, { maxOrderNotional: Fixed.of(1000) })).toEqual({
      kind: 'denied',
      code: 'UNKNOWN_SYMBOL',
      message: 'the broker does not know AAPL.US: unknown symbol: no market data for AAPL.US yet',
      figures: { symbol: 'AAPL.US' },
    });
  });

  it('denies new exposure after the daily-loss switch tripped', () => {
    expect(decide(order('Buy', 1), { equity: tripped() })).toMatchObject({
      code: 'DAILY_LOSS_HALT',
      figures: { loss: '600', limit: '500', dayStart: '10000', netAssets: '9400' },
    });
  });

  it('denies new exposure after the drawdown switch tripped', () => {
    const limits = { maxDrawdown: Fixed.of(0.1) };
    let watch = observeEquity(FRESH_EQUITY_WATCH, Money.of(10_000, 'USD'), MARKET_OPEN, 'America/New_York', limits);
    watch = observeEquity(watch, Money.of(8_900, 'USD'), MARKET_OPEN + 5 * 86_400_000, 'America/New_York', limits);

    expect(decide(order('Buy', 1), { equity: watch }, limits)).toMatchObject({
      code: 'DRAWDOWN_HALT',
      figures: { drawdown: '0.11', limit: '0.1', peak: '10000' },
    });
  });

  it('denies an opening order without fresh broker figures', () => {
    expect(decide(order('Buy', 1), { buyLimit: undefined })).toMatchObject({
      code: 'RISK_DATA_UNAVAILABLE',
      figures: { missing: 'buy limit' },
    });
  });

  it('says why the broker figures are missing in the denial message itself', () => {
    const failed = { buyLimit: undefined, figuresError: { message: 'estimateBuyLimit: timed out after 10000 ms', unknownSymbol: false } };

    expect(decide(order('Buy', 1), failed)).toMatchObject({
      code: 'RISK_DATA_UNAVAILABLE',
      message: 'no fresh buy limit from the broker: order not sent (estimateBuyLimit: timed out after 10000 ms)',
    });
  });

  it('denies an order it cannot value', () => {
    expect(decide(order('Buy', 1), { referencePrice: undefined })).toMatchObject({ code: 'NO_REFERENCE_PRICE' });
  });
});

function tripped(): RiskSnapshot['equity'] {
  const limits = { dailyLossLimit: Fixed.of(500) };
  const start = observeEquity(FRESH_EQUITY_WATCH, Money.of(10_000, 'USD'), MARKET_OPEN, 'America/New_York', limits);
  return observeEquity(start, Money.of(9_400, 'USD'), MARKET_OPEN + 3_600_000, 'America/New_York', limits);
}
