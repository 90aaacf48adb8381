// How a closed bar (or a trade print) reaches a symbol's book slot: its resting orders are matched first,
// then the mark moves to its close. The backtest walks each series through one BarInput.
import type { SymbolSlot } from './book.js';
import type { SymbolCarry } from './carry.js';
import type { Engine } from './engine.js';
import type { Bar } from './matching.js';

/** Whether [start, end) overlaps one of the regular sessions of the market day `start` falls in. */
function overlapsSession(slot: SymbolSlot, start: number, end: number): boolean {
  const sessions = slot.days.sessionsOf(start);
  for (let index = 0; index < sessions.length; index += 2) if (sessions[index]! < end && sessions[index + 1]! > start) return true;
  return false;
}

/** The bar a replayed tick comes from: its span [start, end) and its whole volume. */
export interface TickOfBar {
  readonly start: number;
  readonly end?: number;
  readonly volume: number;
  /** The close of the data's last bar of its market day (see BarInput.onBar's `lastOfDay`). */
  readonly lastOfDay?: boolean;
}

/** Takes the bars of one symbol (see Venue.barInput). */
export interface BarInput {
  /**
   * `lastOfDay`: the data has no later bar of this bar's market day (a half day, or the day's last bar), so
   * a Day order placed after it belongs to the next market day, as one placed after the session does.
   */
  onBar(candle: Bar, lastOfDay?: boolean): void;
}

export class SlotBarInput implements BarInput {
  constructor(
    private readonly engine: Engine,
    private readonly slot: SymbolSlot,
    private readonly spanMs: number,
  ) {}

  onBar(candle: Bar, lastOfDay = false): void {
    markBar(this.engine, this.slot, candle, lastOfDay, undefined, this.spanMs);
  }
}

/** SlotBarInput that first books the symbol's carry (corporate actions due, the borrow fee) for the bar's day. */
export class CarryBarInput implements BarInput {
  constructor(
    private readonly engine: Engine,
    private readonly slot: SymbolSlot,
    private readonly carry: SymbolCarry,
    private readonly spanMs: number,
  ) {}

  onBar(candle: Bar, lastOfDay = false): void {
    this.carry.advance(candle.time);
    markBar(this.engine, this.slot, candle, lastOfDay, undefined, this.spanMs);
  }
}

/**
 * A closed bar on a symbol's slot: its resting orders are matched first, then the mark moves to the close.
 * `spanMs`: the bar's length when intraday (NaN: a day or more or unknown); a replayed tick spans its bar's.
 */
export function markBar(engine: Engine, slot: SymbolSlot, candle: Bar, lastOfDay: boolean, of?: TickOfBar, spanMs = Number.NaN): void {
  slot.dayOver = lastOfDay;
  slot.time = candle.time;
  if (of === undefined) {
    slot.volume = candle.volume;
    slot.consumed = 0;
  } else {
    // A tick of a replayed bar: fills draw on the bar's volume, as a backtest's fills on that bar do.
    if (slot.barStart !== of.start) slot.consumed = 0;
    slot.barStart = of.start;
    slot.volume = of.volume;
  }
  if (slot.resting.length !== 0) {
    // A bar or tick of no known span (day bars, a bare trade print) counts as inside.
    slot.regular =
      of?.end !== undefined
        ? overlapsSession(slot, of.start, of.end)
        : Number.isNaN(spanMs) || overlapsSession(slot, candle.time, candle.time + spanMs);
    engine.processBar(slot, candle);
  }
  const quantity = slot.quantity;
  if (quantity !== 0 && candle.close !== slot.mark) {
    slot.ledger.holdingsFloat += quantity * (candle.close - slot.mark);
    slot.ledger.version += 1;
    slot.ledger.holdingsVersion += 1;
  }
  if (candle.close !== slot.mark) {
    slot.mark = candle.close;
    slot.markPrice = undefined;
  }
}
