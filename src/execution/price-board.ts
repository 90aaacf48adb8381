// The last known price per symbol (candle close or quote), used to value market orders for risk checks.
// Streams hold their symbol's slot and overwrite a reference per bar: no lookup, no allocation.
import { Price, type Candle, type Quote, type SecuritySymbol } from '../domain/index.js';

export interface PriceSlot {
  candle: Candle | undefined;
  quote: Quote | undefined;
  /** The Price of a candle's close, made when an order needs it, and the candle it belongs to. */
  closeOf?: Candle | undefined;
  close?: Price | undefined;
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
  price(symbol: SecuritySymbol): Price | undefined {
    const slot = this.slots.get(symbol);
    if (slot === undefined) return undefined;
    const { candle, quote } = slot;
    if (quote !== undefined && (candle === undefined || quote.timestamp >= candle.time)) return quote.lastDone;
    if (candle === undefined) return undefined;
    if (slot.closeOf !== candle) {
      slot.close = Price.of(candle.close);
      slot.closeOf = candle;
    }
    return slot.close;
  }
}
