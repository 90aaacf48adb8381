// The last known price per symbol (candle close or quote), used to value market orders for risk checks.
// Streams hold their symbol's slot and overwrite a reference per bar: no lookup, no allocation.
import { Price, type Candle, type Quote, type SecuritySymbol } from '../domain/index.js';
import type { BarColumns } from '../domain/bar-stream.js';

export interface PriceSlot {
  /** The last bar: a Candle, or (handed in bar form) its place `at` in `columns`; at most one is set. */
  candle: Candle | undefined;
  columns: BarColumns | undefined;
  at: number;
  quote: Quote | undefined;
  /** The Price of the last close, made when an order needs it, and the close it was made from. */
  closeOf: number;
  close: Price | undefined;
}

export class PriceBoard {
  private readonly slots = new Map<SecuritySymbol, PriceSlot>();

  slot(symbol: SecuritySymbol): PriceSlot {
    let slot = this.slots.get(symbol);
    if (slot === undefined) {
      slot = { candle: undefined, columns: undefined, at: 0, quote: undefined, closeOf: Number.NaN, close: undefined };
      this.slots.set(symbol, slot);
    }
    return slot;
  }

  /** The most recent of the last quote and the last candle's close. */
  price(symbol: SecuritySymbol): Price | undefined {
    const slot = this.slots.get(symbol);
    if (slot === undefined) return undefined;
    const { candle, columns, at, quote } = slot;
    const barTime = candle !== undefined ? candle.time : columns !== undefined ? columns.time[at]! : undefined;
    if (quote !== undefined && (barTime === undefined || quote.timestamp >= barTime)) return quote.lastDone;
    if (barTime === undefined) return undefined;
    const close = candle !== undefined ? candle.close : columns!.close[at]!;
    // Price.of depends on the float only.
    if (!(slot.closeOf === close)) {
      slot.close = Price.of(close);
      slot.closeOf = close;
    }
    return slot.close;
  }
}
