// Where an order fills on one bar, if it does. Checks run on floats; a Price is made only for a fill, from
// the exact number it fills at (the open, the close, the limit or the trigger).
//
// Intrabar path: the price moves open → first extreme → second extreme → close; which extreme comes first
// is the `intrabarPath` setting (default: the one nearer the open). A bar that opens beyond a trigger or
// limit fills at the open (gap handling). A tick is a bar with open = high = low = close; a replayed bar's
// later ticks are straight moves from the tick before (open) to theirs (close), so an order resting through
// them fills where a backtest fills it on the bar (a limit crossed between two ticks at the limit), while one
// already marketable when the move starts (placed since the tick before) fills at the tick's price.
import type { Candle } from '../../domain/candle.js';
import { Fixed } from '../../domain/fixed.js';
import { maxOf, minOf } from '../../domain/fixed-point.js';
import { Price } from '../../domain/price.js';
import { isTrailingType, isTriggeredType } from './order-kinds.js';
import type { OrderRecord } from './orders.js';
import type { FillModel, IntrabarPath } from './settings.js';

/** The bar fields matching reads (a Candle is one); `straight`: a move from open to close, whatever the path setting. */
export type Bar = Pick<Candle, 'time' | 'open' | 'high' | 'low' | 'close' | 'volume'> & { readonly straight?: boolean };

/** Whether the price meets the bar's high before its low under `path`. */
export function highFirstOn(path: IntrabarPath, bar: Pick<Bar, 'open' | 'high' | 'low' | 'close'>): boolean {
  switch (path) {
    case 'high-first':
      return true;
    case 'low-first':
      return false;
    case 'bar-direction':
      return bar.close < bar.open;
    case 'nearest-first':
      return bar.high - bar.open <= bar.open - bar.low;
  }
}

/** Where an order already fillable when the bar starts fills: the open, or a straight move's end (the tick). */
function gapPrice(bar: Bar): number {
  return bar.straight === true ? bar.close : bar.open;
}

const HUNDRED = Fixed.of(100);

export class Matcher {
  /**
   * How far along the bar's path (open → first extreme → second extreme → close, in price travelled) the
   * last fill fillPrice found happens: fills of one bar go out in this order, as ticks would bring them.
   */
  reachedAt = 0;
  private readonly up: Fixed;
  private readonly down: Fixed;
  private readonly slipping: boolean;

  constructor(
    slippageBps: number,
    private readonly path: IntrabarPath,
    private readonly fillModel: FillModel,
  ) {
    const basisPoints = Fixed.of(slippageBps, 'slippage');
    const slip = basisPoints.dividedBy(Fixed.of(10_000), basisPoints.precision + 4);
    this.up = Fixed.ONE.plus(slip).normalized();
    this.down = Fixed.ONE.minus(slip).normalized();
    this.slipping = slippageBps > 0;
  }

  /** A market-style fill at `price`, moved against the order by the slippage. */
  slipped(price: number | Price, buy: boolean): Price {
    const exact = typeof price === 'number' ? Price.of(price) : price;
    return this.slipping ? exact.times(buy ? this.up : this.down) : exact;
  }

  /**
   * The price `record` fills at on `bar`, or undefined. A trigger order reached on this bar is marked
   * triggered (and a trailing order gets its trigger and limit prices) even when it does not fill.
   */
  fillPrice(record: OrderRecord, bar: Bar): Price | undefined {
    const buy = record.side === 'Buy';
    this.reachedAt = 0;
    switch (record.orderType) {
      case 'MO':
        if (this.fillModel === 'close') this.reachedAt = Number.POSITIVE_INFINITY;
        return this.slipped(this.fillModel === 'close' ? bar.close : gapPrice(bar), buy);
      case 'AO':
        return this.slipped(gapPrice(bar), buy);
      default:
        break;
    }
    if (isTriggeredType(record.orderType) && !record.triggered) return this.tryTrigger(record, bar, buy);
    return this.limitFill(record, bar, buy);
  }

  private limitFill(record: OrderRecord, bar: Bar, buy: boolean): Price | undefined {
    const limit = record.limit;
    if (buy) {
      if (bar.low > limit) return undefined;
      if (bar.open <= limit) return minOf(this.slipped(gapPrice(bar), true), record.price!);
      this.reachedAt = this.distanceTo(limit, bar, 0);
      return record.price;
    }
    if (bar.high < limit) return undefined;
    if (bar.open >= limit) return maxOf(this.slipped(gapPrice(bar), false), record.price!);
    this.reachedAt = this.distanceTo(limit, bar, 0);
    return record.price;
  }

  private tryTrigger(record: OrderRecord, bar: Bar, buy: boolean): Price | undefined {
    const trailing = isTrailingType(record.orderType);
    const highFirst = this.highFirst(bar);
    const first = highFirst ? bar.high : bar.low;
    const second = highFirst ? bar.low : bar.high;
    const segment = trailing
      ? trailTouch(record, buy, bar.open, first, second, bar.close)
      : touch(record.triggerDirection, record.trigger, bar.open, first, second);
    if (segment < 0) return undefined;
    record.triggered = true;
    record.triggerAt = bar.time;
    record.triggerStatus = 'RELEASED';
    if (trailing) settleTrailingPrices(record, buy);
    const atOpen = segment === 0;
    const reached = atOpen ? gapPrice(bar) : record.trigger;
    // A trailing trigger may lie where the path passed before it trailed up to it: look from its leg on.
    const triggeredAt = atOpen ? 0 : this.distanceTo(record.trigger, bar, trailing ? this.legStart(bar, segment) : 0);
    this.reachedAt = triggeredAt;
    if (record.orderType === 'MIT') return this.slipped(atOpen ? reached : record.triggerPrice!, buy);
    // A limit order from the trigger point on: it sees the rest of the path (none after a straight move's end).
    const limit = record.limit;
    const ended = atOpen && bar.straight === true;
    if (buy) {
      const lowest = ended ? reached : Math.min(reached, restOfPath(segment, first, second, bar.close, Math.min));
      if (lowest > limit) return undefined;
      if (reached <= limit) return atOpen ? Price.of(reached) : record.triggerPrice!;
      this.reachedAt = this.distanceTo(limit, bar, triggeredAt);
      return record.price;
    }
    const highest = ended ? reached : Math.max(reached, restOfPath(segment, first, second, bar.close, Math.max));
    if (highest < limit) return undefined;
    if (reached >= limit) return atOpen ? Price.of(reached) : record.triggerPrice!;
    this.reachedAt = this.distanceTo(limit, bar, triggeredAt);
    return record.price;
  }

  /** Price travelled along the bar's path until it first reaches `level` at or after `from`; the path's end if never. */
  private distanceTo(level: number, bar: Bar, from: number): number {
    const highFirst = this.highFirst(bar);
    const first = highFirst ? bar.high : bar.low;
    const second = highFirst ? bar.low : bar.high;
    let start = 0;
    let at = bar.open;
    for (let leg = 0; leg < 3; leg += 1) {
      const to = leg === 0 ? first : leg === 1 ? second : bar.close;
      if (level >= Math.min(at, to) && level <= Math.max(at, to)) {
        const reached = start + Math.abs(level - at);
        if (reached >= from) return reached;
      }
      start += Math.abs(to - at);
      at = to;
    }
    return start;
  }

  /** Price travelled along the bar's path before leg `leg` (1: open → first extreme, 2: → second, 3: → close). */
  private legStart(bar: Bar, leg: number): number {
    const highFirst = this.highFirst(bar);
    const first = highFirst ? bar.high : bar.low;
    const second = highFirst ? bar.low : bar.high;
    const points = [bar.open, first, second];
    let start = 0;
    for (let index = 1; index < leg; index += 1) start += Math.abs(points[index]! - points[index - 1]!);
    return start;
  }

  private highFirst(bar: Bar): boolean {
    return bar.straight === true ? bar.close < bar.open : highFirstOn(this.path, bar);
  }
}

/** 0: at the open; 1: on the way to the first extreme; 2: on the way to the second; -1: not reached. */
function touch(direction: number, level: number, open: number, first: number, second: number): number {
  if (direction > 0) {
    if (open >= level) return 0;
    if (first >= level) return 1;
    return second >= level ? 2 : -1;
  }
  if (open <= level) return 0;
  if (first <= level) return 1;
  return second <= level ? 2 : -1;
}

/** The extreme (by `pick`) of the path after the trigger on leg `segment`: both extremes, the second, or the close. */
function restOfPath(segment: number, first: number, second: number, close: number, pick: (a: number, b: number) => number): number {
  if (segment <= 1) return pick(first, second);
  return segment === 2 ? second : close;
}

/**
 * Trails a trailing order along the bar's path (open → first extreme → second extreme → close) as the replay's
 * ticks do: at each point the stop is where the best price before it puts it, and the best price then moves
 * to the point. The leg that reaches the stop (0: the open, 1–3: the move to the first extreme, the second,
 * the close), or −1; `trailExtreme` is left at the best price before that leg (after the bar when none).
 */
function trailTouch(record: OrderRecord, buy: boolean, open: number, first: number, second: number, close: number): number {
  const points = [open, first, second, close];
  for (let leg = 0; leg < points.length; leg += 1) {
    const at = points[leg]!;
    record.trigger = trailingStop(record, buy);
    if (buy ? at >= record.trigger : at <= record.trigger) return leg;
    record.trailExtreme = buy ? Math.min(record.trailExtreme, at) : Math.max(record.trailExtreme, at);
  }
  return -1;
}

/** The trailing stop from the best price seen so far: a sell trails below highs, a buy above lows. */
function trailingStop(record: OrderRecord, buy: boolean): number {
  const extreme = record.trailExtreme;
  if (record.orderType === 'TSLPAMT') {
    const amount = record.trailingAmount!.toNumber();
    return buy ? extreme + amount : extreme - amount;
  }
  const fraction = record.trailingPercent!.toNumber() / 100;
  return buy ? extreme * (1 + fraction) : extreme * (1 - fraction);
}

/** Exact trigger and limit prices of a trailing order at the moment it triggers. */
function settleTrailingPrices(record: OrderRecord, buy: boolean): void {
  const extreme = Price.of(record.trailExtreme);
  let trigger: Price;
  if (record.orderType === 'TSLPAMT') trigger = buy ? extreme.plus(record.trailingAmount!) : extreme.minus(record.trailingAmount!);
  else {
    const scaled = extreme.times(buy ? HUNDRED.plus(record.trailingPercent!) : HUNDRED.minus(record.trailingPercent!));
    // ÷ 100 is exact two places further on.
    trigger = scaled.dividedBy(HUNDRED, scaled.precision + 2).normalized();
  }
  const offset = record.limitOffset ?? Price.ZERO;
  const limit = buy ? trigger.plus(offset) : trigger.minus(offset);
  record.triggerPrice = trigger;
  record.trigger = trigger.toNumber();
  record.price = limit;
  record.limit = limit.toNumber();
}
