// The data the report page draws, in a compact column layout (a 5,000-bar daily run is a few hundred KB).
import type { Fill } from '../../domain/fill.js';
import { isIntraday } from '../../domain/period.js';
import { timeZoneOf } from '../../domain/market-hours.js';
import { marketOf } from '../../domain/symbol.js';
import { barFields } from '../bar-history.js';
import { barLocator } from '../metrics/bar-index.js';
import { drawdownSeries } from '../metrics/drawdown.js';
import type { BacktestRecord, ResultView } from '../result.js';
import { formatCount, formatLocal, formatMoney, formatPercent, toneOf, tradeTags } from './format.js';
import { localTime } from './local-time.js';
import { pricePlaces, priceText } from './price-places.js';
import { type BarColumns, barsPerCandle, curvePoints, joinedBars } from './chart-thinning.js';

/**
 * Chart times are the market's wall time as UTC seconds, so the axis reads local dates and hours; every
 * `time` array is delta-encoded (the first value absolute, then differences), which halves its size.
 */
export interface ChartData {
  readonly intraday: boolean;
  readonly initialCash: number;
  readonly symbols: readonly SymbolSeries[];
  /** The curve's points drawn (all of them, or each stretch's extremes: chart-thinning.ts); `of`: how many it has. */
  readonly equity: { readonly time: number[]; readonly value: number[]; readonly drawdown: number[]; readonly of: number };
  /** Rows of the trades table, already formatted: 11 cells (the last the tags), then the pnl's tone ("positive" | "negative" | ""). */
  readonly trades: readonly (readonly string[])[];
}

/**
 * Prices travel as whole numbers of 1 / `scale` (10^ the data's price places, at most 8): `close` delta-encoded
 * like times, `open`, `high` and `low` as differences from the bar's close. Small integers are a fraction of
 * the size of decimal prices and quicker to write; dividing by `scale` gives the data's prices back.
 */
export interface SymbolSeries {
  readonly symbol: string;
  /** Data bars joined into each candle drawn (1: each bar its own; chart-thinning.ts). */
  readonly group: number;
  readonly time: number[];
  readonly scale: number;
  readonly open: number[];
  readonly high: number[];
  readonly low: number[];
  readonly close: number[];
  /** [chart time of the fill's candle (absolute), "B" | "S", quantity, or "×N" for N fills of a side in one joined candle]. */
  readonly fills: [number, 'B' | 'S', string][];
}

export function buildChartData(record: BacktestRecord, result: ResultView): ChartData {
  const intraday = isIntraday(record.period);
  const locate = barLocator(record.bars);
  const fillsBySymbol = new Map<string, Fill[]>();
  for (const fill of record.fills) {
    const list = fillsBySymbol.get(fill.symbol);
    if (list === undefined) fillsBySymbol.set(fill.symbol, [fill]);
    else list.push(fill);
  }
  const symbols: SymbolSeries[] = [];
  for (const [symbol, history] of record.bars) {
    const bars = barFields(history);
    const group = barsPerCandle(bars.length);
    const drawn = joinedBars(bars, group);
    const clock = localTime(timeZoneOf(marketOf(symbol)));
    const times = Array.from(drawn.time, (time) => clock.chartSeconds(time));
    const fills: SymbolSeries['fills'] = [];
    let joined = 0;
    for (const fill of bars.length === 0 ? [] : (fillsBySymbol.get(symbol) ?? [])) {
      const time = times[Math.floor(locate(symbol, fill.time) / group)]!;
      const side = fill.side === 'Buy' ? 'B' : 'S';
      const last = fills[fills.length - 1];
      if (group > 1 && last !== undefined && last[0] === time && last[1] === side) {
        joined += 1;
        last[2] = `×${joined}`;
        continue;
      }
      joined = 1;
      fills.push([time, side, fill.quantity.toFixed()]);
    }
    symbols.push({ symbol, group, time: deltas(times), ...pricesInUnits(drawn, 10 ** pricePlaces(history)), fills });
  }

  const runClock = localTime(result.timeZone);
  const { times, equity } = record.equity;
  const initialCash = record.initialCash.toNumber();
  const drawdown = drawdownSeries(equity, initialCash);
  const chartTimes: number[] = [];
  const value: number[] = [];
  const drawdownPercent: number[] = [];
  for (const index of curvePoints(equity, drawdown)) {
    chartTimes.push(runClock.chartSeconds(times[index]!));
    value.push(Math.round(equity[index]! * 100) / 100);
    drawdownPercent.push(Math.round(drawdown[index]! * 10_000) / 100);
  }
  const curve = { time: deltas(chartTimes), value, drawdown: drawdownPercent, of: equity.length };

  const trades = result.trades.map((trade) => {
    const pnl = Number(trade.pnl);
    const tone = toneOf(pnl);
    return [
      trade.symbol,
      trade.side,
      trade.quantity,
      formatLocal(trade.entryTime, intraday),
      priceText(result, trade.symbol, trade.entryPrice),
      formatLocal(trade.exitTime, intraday),
      priceText(result, trade.symbol, trade.exitPrice),
      formatMoney(pnl),
      formatPercent(trade.return, true),
      formatCount(trade.barsHeld),
      tradeTags(trade),
      tone === 'neutral' ? '' : tone,
    ];
  });
  return { intraday, initialCash, symbols, equity: curve, trades };
}

/** The bars' prices in units of 1 / scale (see SymbolSeries). */
function pricesInUnits(
  bars: Pick<BarColumns, 'open' | 'high' | 'low' | 'close'>,
  scale: number,
): Pick<SymbolSeries, 'scale' | 'open' | 'high' | 'low' | 'close'> {
  const count = bars.close.length;
  const open = new Array<number>(count);
  const high = new Array<number>(count);
  const low = new Array<number>(count);
  const close = new Array<number>(count);
  let previous = 0;
  for (let index = 0; index < count; index += 1) {
    const units = Math.round(bars.close[index]! * scale);
    close[index] = units - previous;
    open[index] = Math.round(bars.open[index]! * scale) - units;
    high[index] = Math.round(bars.high[index]! * scale) - units;
    low[index] = Math.round(bars.low[index]! * scale) - units;
    previous = units;
  }
  return { scale, open, high, low, close };
}

/** Delta-encodes times, nudging a repeated wall time (the hour a DST change replays) one second forward. */
function deltas(times: readonly number[]): number[] {
  const encoded = new Array<number>(times.length);
  let previous = 0;
  for (let index = 0; index < times.length; index += 1) {
    const time = index === 0 ? times[0]! : Math.max(times[index]!, previous + 1);
    encoded[index] = time - previous;
    previous = time;
  }
  return encoded;
}
