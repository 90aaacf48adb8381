// Shared arrangements for the venue tests: a venue on a virtual clock that records every order update,
// and day bars for hand-checked series.
import { VirtualClock } from '../../../src/clock/virtual-clock.js';
import type { Candle } from '../../../src/domain/candle.js';
import { Decimal } from '../../../src/domain/decimal.js';
import { Fixed } from '../../../src/domain/fixed.js';
import { Price } from '../../../src/domain/price.js';
import { Quantity } from '../../../src/domain/quantity.js';
import type { OrderRequest } from '../../../src/domain/order.js';
import { parseSymbol, type SecuritySymbol } from '../../../src/domain/symbol.js';
import { Venue, type VenueOptions, type VenueOrderUpdate, type VenueSettingsInput } from '../../../src/sim/venue/index.js';
import { localTime } from '../../support/market-bars.js';

export { dayBar, dayTime, localTime } from '../../support/market-bars.js';

export const HK = parseSymbol('700.HK');
export const US = parseSymbol('AAPL.US');

export const d = (value: number | string): Decimal => new Decimal(value);
export const p = (value: number | string): Price => Price.of(value);
export const q = (value: number | string): Quantity => Quantity.of(value);
export const f = (value: number | string): Fixed => Fixed.of(value);

export function minuteBar(
  symbol: SecuritySymbol,
  local: string,
  open: number,
  high: number,
  low: number,
  close: number,
  volume = 1_000_000,
): Candle {
  return { symbol, period: '1m', time: localTime(symbol, local), open, high, low, close, volume };
}

export function order(symbol: SecuritySymbol, side: 'Buy' | 'Sell', quantity: number, extra: Partial<OrderRequest> = {}): OrderRequest {
  return { symbol, side, orderType: extra.price === undefined ? 'MO' : 'LO', quantity: q(quantity), timeInForce: 'Day', ...extra };
}

export class Harness {
  readonly clock: VirtualClock;
  readonly venue: Venue;
  readonly updates: VenueOrderUpdate[] = [];

  constructor(settings: VenueSettingsInput = {}, options: Omit<VenueOptions, 'clock' | 'settings'> = {}) {
    this.clock = new VirtualClock(Date.UTC(2023, 11, 31));
    this.venue = new Venue({ clock: this.clock, settings, ...options });
    this.venue.onOrderUpdate((update) => this.updates.push(update));
  }

  /** Moves the clock to the bar's start and hands the bar to the venue, as a backtest does. */
  bar(candle: Candle): this {
    this.clock.advanceTo(candle.time);
    this.venue.onBar(candle);
    return this;
  }

  fillsOf(orderId: string): VenueOrderUpdate[] {
    return this.updates.filter((update) => update.orderId === orderId && update.lastShare !== undefined);
  }

  cash(currency = 'HKD'): string {
    return this.venue.accountBalance(currency)[0]!.totalCash.toFixed();
  }
}
