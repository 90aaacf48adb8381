// The last known price per symbol (candle close or quote), used to value market orders for risk checks.
// Streams hold their symbol's slot and overwrite a reference per bar: no lookup, no allocation.
import { decimalFromNumber, type Candle, type Decimal, type Quote, type SecuritySymbol } from '../domain/index.js';

export interface PriceSlot {
  candle: Candle | undefined;
  quote: Quote | undefined;
}

export class PriceBoard {
  private readonly slots = new Map<SecuritySymbol, PriceSlot>();

  slot(symbol: SecuritySymbol): PriceSlot {
    let slot = this.slots.get(symbol);
    if (slot === undefined) {
      slot = { candle: undefined, quote: undefined };
      this.slots.set(symbol, slot);
    }
    return slot;
  }

  /** The most recent of the last quote and the last candle's close. */
  price(symbol: SecuritySymbol): Decimal | undefined {
    const slot = this.slots.get(symbol);
    if (slot === undefined) return undefined;
    const { candle, quote } = slot;
    if (quote !== undefined && (candle === undefined || quote.timestamp >= candle.time)) return quote.lastDone;
    return candle === undefined ? undefined : decimalFromNumber(candle.close);
  }
}
