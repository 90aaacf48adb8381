// Builders of synthetic backtest inputs: bars, fills and a consistent equity curve, for metrics and report tests.
import type { BacktestRecord, EquityCurve } from '../../../src/backtest/result.js';
import type { Candle } from '../../../src/domain/candle.js';
import { Decimal } from '../../../src/domain/decimal.js';
import type { Fill } from '../../../src/domain/fill.js';
import type { Side } from '../../../src/domain/order-types.js';
import type { Period } from '../../../src/domain/period.js';
import { parseSymbol, type SecuritySymbol } from '../../../src/domain/symbol.js';
import { Money, Price, Quantity } from '../../../src/domain/index.js';

// The reference run below computes in decimal.js, independently of the fixed-point values under test.
const ZERO = new Decimal(0);

export const DAY_MS = 86_400_000;
/** 2024-01-02T00:00:00-05:00, a New York midnight: how daily US bars are stamped. */
export const US_DAY_ZERO = Date.UTC(2024, 0, 2, 5);
export const SPY = parseSymbol('SPY.US');

/** Bars with the given closes, each opening at the previous close, one period apart. */
export function barsFromCloses(
  closes: readonly number[],
  options: { symbol?: SecuritySymbol; start?: number; stepMs?: number; period?: Period } = {},
): Candle[] {
  const { symbol = SPY, start = US_DAY_ZERO, stepMs = DAY_MS, period = 'day' } = options;
  return closes.map((close, index) => {
    const open = index === 0 ? close : closes[index - 1]!;
    return {
      symbol,
      period,
      time: start + index * stepMs,
      open,
      high: Math.max(open, close) + 0.5,
      low: Math.min(open, close) - 0.5,
      close,
      volume: 1000,
    };
  });
}

/** A seeded random walk of `count` daily bars (prices rounded to cents), the same for the same seed. */
export function randomWalkBars(
  count: number,
  options: { symbol?: SecuritySymbol; seed?: number; startPrice?: number; start?: number; stepMs?: number; period?: Period } = {},
): Candle[] {
  let state = options.seed ?? 1;
  const random = (): number => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  const closes: number[] = [];
  let price = options.startPrice ?? 100;
  for (let index = 0; index < count; index += 1) {
    price = Math.max(1, Math.round(price * (1 + (random() - 0.49) * 0.04) * 100) / 100);
    closes.push(price);
  }
  return barsFromCloses(closes, options);
}

let fillSequence = 0;

export function makeFill(
  side: Side,
  quantity: string,
  price: string,
  time: number,
  options: { symbol?: SecuritySymbol; commission?: string } = {},
): Fill {
  fillSequence += 1;
  const orderId = `order-${fillSequence}`;
  return {
    fillId: `${orderId}:${quantity}`,
    orderId,
    symbol: options.symbol ?? SPY,
    side,
    quantity: Quantity.of(quantity),
    price: Price.of(price),
    time,
    commission: Money.of(options.commission ?? '0', 'USD'),
  };
}

export interface Order {
  /** Bar index whose open fills it. */
  readonly bar: number;
  readonly side: Side;
  readonly quantity: number;
  readonly symbol?: SecuritySymbol;
}

/**
 * A reference run: each order fills at its bar's open with commission = rate × value, and equity is
 * cash + positions at each distinct bar time's close — what the engine is expected to hand over.
 */
export function simulateRun(
  bars: ReadonlyMap<SecuritySymbol, readonly Candle[]>,
  orders: readonly Order[],
  options: { initialCash?: number; commissionRate?: string; period?: Period; strategy?: string } = {},
): BacktestRecord {
  const initialCash = new Decimal(options.initialCash ?? 100_000);
  const initialMoney = Money.of(initialCash.toFixed(), 'USD');
  const rate = new Decimal(options.commissionRate ?? '0');
  const firstSymbol = [...bars.keys()][0]!;
  const times = [...new Set([...bars.values()].flatMap((candles) => candles.map((candle) => candle.time)))].sort((a, b) => a - b);
  const positions = new Map<SecuritySymbol, Decimal>();
  const lastClose = new Map<SecuritySymbol, number>();
  const fills: Fill[] = [];
  const curve = { times: [] as number[], equity: [] as number[], exposed: [] as boolean[] };
  let cash = initialCash;
  for (const time of times) {
    for (const [symbol, candles] of bars) {
      const index = candles.findIndex((candle) => candle.time === time);
      if (index < 0) continue;
      const candle = candles[index]!;
      for (const order of orders.filter((o) => o.bar === index && (o.symbol ?? firstSymbol) === symbol)) {
        const price = new Decimal(candle.open);
        const quantity = new Decimal(order.quantity);
        const commission = price.times(quantity).times(rate);
        const fill = makeFill(order.side, quantity.toFixed(), price.toFixed(), time, { symbol, commission: commission.toFixed() });
        fills.push(fill);
        const signed = order.side === 'Buy' ? quantity : quantity.negated();
        positions.set(symbol, (positions.get(symbol) ?? ZERO).plus(signed));
        cash = cash.minus(signed.times(price)).minus(commission);
      }
      lastClose.set(symbol, candle.close);
    }
    let equity = cash;
    for (const [symbol, quantity] of positions) equity = equity.plus(quantity.times(new Decimal(lastClose.get(symbol)!)));
    curve.times.push(time);
    curve.equity.push(equity.toNumber());
    curve.exposed.push([...positions.values()].some((quantity) => !quantity.isZero()));
  }
  return {
    strategy: options.strategy ?? 'fixture',
    period: options.period ?? 'day',
    currency: 'USD',
    initialCash: initialMoney,
    bars,
    equity: curve,
    fills,
    // Every scripted order is one intent, placed and filled at once.
    activity: { intents: fills.length, orders: fills.length, denialsByCode: {}, denials: [] },
  };
}

/** A record around a hand-written equity curve (no bars beyond what the curve's times need). */
export function recordWithEquity(
  equity: readonly number[],
  options: {
    initialCash?: number;
    exposed?: readonly boolean[];
    fills?: readonly Fill[];
    period?: Period;
    stepMs?: number;
    start?: number;
  } = {},
): BacktestRecord {
  const stepMs = options.stepMs ?? DAY_MS;
  const start = options.start ?? US_DAY_ZERO;
  const bars = barsFromCloses(
    equity.map(() => 100),
    { start, stepMs, period: options.period ?? 'day' },
  );
  const curve: EquityCurve = {
    times: bars.map((bar) => bar.time),
    equity,
    exposed: options.exposed ?? equity.map(() => false),
  };
  return {
    strategy: 'fixture',
    period: options.period ?? 'day',
    currency: 'USD',
    initialCash: Money.of(options.initialCash ?? 100, 'USD'),
    bars: new Map([[SPY, bars]]),
    equity: curve,
    fills: options.fills ?? [],
    activity: { intents: options.fills?.length ?? 0, orders: options.fills?.length ?? 0, denialsByCode: {}, denials: [] },
  };
}
