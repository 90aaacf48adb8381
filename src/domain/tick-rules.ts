// Tick rules: the price steps an exchange accepts, by market and price band. Pure; prices are fixed-point.
import { Price } from './price.js';

/** A named market table, or a fixed step (e.g. 0.005). */
export const TICK_TABLES = ['hk-spread-table', 'us-stock', 'cn-stock', 'sg-stock'] as const;
export type TickTable = (typeof TICK_TABLES)[number];
export type TickRule = TickTable | { readonly fixed: Price };

interface Band {
  /** The step applies to prices up to and including this bound (none: every price above the last bound). */
  readonly upTo: Price | undefined;
  readonly tick: Price;
}

function bands(rows: readonly (readonly [string | undefined, string])[]): readonly Band[] {
  return rows.map(([upTo, tick]) => ({ upTo: upTo === undefined ? undefined : Price.of(upTo), tick: Price.of(tick) }));
}

const BANDS: Readonly<Record<TickTable, readonly Band[]>> = {
  // HKEX spread table (Part A, equities): "over 0.25 to 0.50: 0.005" and so on; the bounds sit on both ladders.
  'hk-spread-table': bands([
    ['0.25', '0.001'],
    ['0.5', '0.005'],
    ['10', '0.01'],
    ['20', '0.02'],
    ['100', '0.05'],
    ['200', '0.1'],
    ['500', '0.2'],
    ['1000', '0.5'],
    ['2000', '1'],
    ['5000', '2'],
    [undefined, '5'],
  ]),
  // US (Reg NMS rule 612): 0.0001 below 1 USD, 0.01 at or above.
  'us-stock': bands([
    ['0.9999', '0.0001'],
    [undefined, '0.01'],
  ]),
  // SSE and SZSE A shares through China Connect: one step of 0.01 CNY.
  'cn-stock': bands([[undefined, '0.01']]),
  // SGX securities: 0.001 below 0.20, 0.005 from 0.20 below 1.00, 0.01 from 1.00.
  'sg-stock': bands([
    ['0.199', '0.001'],
    ['0.995', '0.005'],
    [undefined, '0.01'],
  ]),
};

/** The price step at `price` (a positive price). */
export function tickSizeAt(rule: TickRule, price: Price): Price {
  if (typeof rule !== 'string') return rule.fixed;
  const table = BANDS[rule];
  for (const band of table) if (band.upTo === undefined || price.lte(band.upTo)) return band.tick;
  return table[table.length - 1]!.tick;
}

/** The ladder price at or below `price`. */
function floorToTick(price: Price, tick: Price): Price {
  return price.dividedBy(tick, 0, 'floor').times(tick);
}

/** Whether `price` is a whole number of ticks of its band. */
export function isOnTick(rule: TickRule, price: Price): boolean {
  return floorToTick(price, tickSizeAt(rule, price)).eq(price);
}

/** The nearest prices on the ladder at or below and at or above `price`. */
export function tickNeighbours(rule: TickRule, price: Price): { readonly below: Price; readonly above: Price } {
  const tick = tickSizeAt(rule, price);
  const below = floorToTick(price, tick);
  return { below, above: below.eq(price) ? price : below.plus(tick) };
}

/** A rule as text: the table's name or the fixed step. */
export function describeTickRule(rule: TickRule): string {
  return typeof rule === 'string' ? rule : rule.fixed.toString();
}

/** Parses "hk-spread-table", "us-stock", … or a positive decimal step; undefined when it is neither. */
export function parseTickRule(text: string): TickRule | undefined {
  const trimmed = text.trim();
  if ((TICK_TABLES as readonly string[]).includes(trimmed)) return trimmed as TickTable;
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(trimmed)) return undefined;
  const fixed = Price.of(trimmed);
  return fixed.isPositive() ? { fixed } : undefined;
}
