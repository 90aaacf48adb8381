// A paper run decides each bar at its close and its market orders fill at the next bar's open, as in a
// backtest: the replay keeps in step with the run (at each bar's end the bars close, the strategies decide
// and their orders reach the venue before the next bar's first tick). The same strategy over the same bars,
// as a backtest and as a paper run against the real simulator on 127.0.0.1, gives the same fills (bar, side,
// price, quantity) and the same decision instants, for day bars and for intraday bars, with two symbols
// whose ticks come at the same instants.
import { map, merge, take, tap } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Candle } from '../../src/domain/candle.js';
import { timeZoneOf } from '../../src/domain/market-hours.js';
import type { Period } from '../../src/domain/period.js';
import { marketOf, parseSymbol, type SecuritySymbol } from '../../src/domain/symbol.js';
import type { Fill } from '../../src/domain/fill.js';
import { crossover, defineStrategy } from '../../src/index.js';
import { prepareStrategy, type PreparedStrategy } from '../../src/strategy/prepare.js';
import { backtest, localTime, minuteBar } from '../support/backtest/scripted.js';
import { AAPL, wavingDays } from '../support/run/candles.js';
import { removeTempFolders, startPaperHarness, type PaperHarness } from '../support/run/paper-harness.js';

const MSFT = parseSymbol('MSFT.US');

let harness: PaperHarness | undefined;

afterEach(async () => {
  await harness?.stop();
  harness = undefined;
  await removeTempFolders();
});

/** What a strategy saw: each candle's symbol and start, and the clock's time when it saw it. */
interface Seen {
  readonly symbol: SecuritySymbol;
  readonly bar: number;
  readonly now: number;
}

/** An SMA crossover on every symbol: buys 10 on a cross up, closes on a cross down; records what it saw. */
function crossing(symbols: readonly SecuritySymbol[], period: Period, seen: Seen[]): PreparedStrategy {
  const definition = defineStrategy({
    name: 'crossing',
    params: { fast: 2, slow: 5 },
    symbols,
    period,
    run: (ctx) =>
      merge(
        ...ctx.symbols.map((symbol) =>
          ctx.candles(symbol).pipe(
            tap((candle) => seen.push({ symbol, bar: candle.time, now: ctx.clock.now() })),
            crossover(ctx.params.fast, ctx.params.slow),
            map((cross) => (cross === 'up' ? ctx.buy(10, { symbol }) : ctx.close({ symbol }))),
          ),
        ),
      ),
  });
  return prepareStrategy(definition, {}, 'crossing strategy');
}

/** The local date of an instant in a symbol's market. */
function localDate(symbol: SecuritySymbol, time: number): string {
  return new Date(time).toLocaleDateString('sv-SE', { timeZone: timeZoneOf(marketOf(symbol)) });
}

/** A fill as the comparison sees it: the bar it filled on (a day bar by its date), side, quantity, price. */
function fillRow(fill: Fill, period: Period): string {
  const bar = period === 'day' ? localDate(fill.symbol, fill.time) : new Date(fill.time).toISOString();
  return `${bar} ${fill.symbol} ${fill.side} ${fill.quantity.toFixed()} @ ${fill.price.toFixed()}`;
}

/** The bar of `series` a fill of `symbol` filled on (by date for day bars, by start for intraday ones). */
function barOf(series: readonly (readonly Candle[])[], fill: Fill, period: Period): Candle {
  const bars = series.find((candles) => candles[0]!.symbol === fill.symbol)!;
  const bar = bars.find((candle) =>
    period === 'day' ? localDate(candle.symbol, candle.time) === localDate(fill.symbol, fill.time) : candle.time === fill.time,
  );
  if (bar === undefined) throw new Error(`no bar for the fill ${fillRow(fill, period)}`);
  return bar;
}

/** `bars` re-stamped at the times of `times` (another wave, the same days). */
function restamped(bars: readonly Candle[], times: readonly Candle[]): Candle[] {
  return times.map((at, index) => ({ ...bars[index]!, time: at.time }));
}

/** 5-minute bars over whole US sessions, closes on a wave, each opening at the previous close. */
function fiveMinuteBars(symbol: SecuritySymbol, dates: readonly string[], phase: number): Candle[] {
  const bars: Candle[] = [];
  let previous = 100;
  for (const date of dates) {
    for (let slot = 0; slot < 78; slot += 1) {
      const index = bars.length;
      const close = Math.round((100 + 3 * Math.sin(((index + phase) * Math.PI) / 6)) * 100) / 100;
      const minutes = 9 * 60 + 30 + slot * 5;
      const at = `${date} ${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
      bars.push(minuteBar(symbol, at, previous, Math.max(previous, close) + 0.1, Math.min(previous, close) - 0.1, close, '5m', 100_000));
      previous = close;
    }
  }
  return bars;
}

const DAY_AAPL = wavingDays(60);
const DAY_SERIES = [DAY_AAPL, restamped(wavingDays(67, MSFT).slice(7), DAY_AAPL)] as const;
const MINUTE_SERIES = [
  fiveMinuteBars(AAPL, ['2024-01-02', '2024-01-03'], 0),
  fiveMinuteBars(MSFT, ['2024-01-02', '2024-01-03'], 4),
] as const;

describe('paper runs in lockstep with the replay', () => {
  for (const [period, series] of [
    ['day', DAY_SERIES],
    ['5m', MINUTE_SERIES],
  ] as const) {
    it(`${period} bars, two symbols: fills on the bars, sides, prices and quantities of the backtest, at the next bar's open`, async () => {
      const symbols = [AAPL, MSFT];
      const backtested = await backtest(series, [crossing(symbols, period, [])]);
      harness = await startPaperHarness({ strategies: [crossing(symbols, period, [])], candles: series });

      await harness.stepAll();

      const expected = backtested.venue.executions().map((fill) => fillRow(fill, period));
      const paper = harness.sim.venue.executions();
      expect(new Set(paper.map((fill) => fill.symbol))).toEqual(new Set(symbols));
      expect(paper.length).toBeGreaterThanOrEqual(8);
      expect(paper.map((fill) => fillRow(fill, period))).toEqual(expected);
      // Each at its bar's open tick, the bar's first instant of trading.
      for (const fill of paper) {
        const bar = barOf(series, fill, period);
        expect(fill.price.toFixed()).toBe(String(bar.open));
        if (period === 'day') expect(fill.time).toBe(localTime(fill.symbol, `${localDate(fill.symbol, fill.time)} 09:30`));
      }
      // The data's end closed the last bars: positions are marked at their closes, as in a backtest.
      for (const candles of series) expect(harness.session.runtime.lastPrice(candles[0]!.symbol)?.toNumber()).toBe(candles.at(-1)!.close);
    });

    it(`${period} bars: decides each bar at its close instant, the backtest's, not at the next bar's open`, async () => {
      const symbols = [AAPL, MSFT];
      // The data's end closes the last bars, as a backtest's last bars close.
      const backtested = await backtest(series, [crossing(symbols, period, [])]);
      const seen: Seen[] = [];
      harness = await startPaperHarness({ strategies: [crossing(symbols, period, seen)], candles: series });

      await harness.stepAll();

      const intents = harness.ofType('intent');
      expect(intents.length).toBeGreaterThanOrEqual(8);
      expect(intents.map((event) => event.time)).toEqual(backtested.intents.map((recorded) => recorded.time));
      // The strategy's clock reads the bar's end when it sees the bar: 16:00 New York for a day bar.
      const end = (candle: Seen): number =>
        period === 'day' ? localTime(candle.symbol, `${localDate(candle.symbol, candle.bar)} 16:00`) : candle.bar + 5 * 60_000;
      expect(seen).toHaveLength(series[0].length + series[1].length);
      expect(seen.filter((candle) => candle.now !== end(candle))).toEqual([]);
    });
  }
});

describe('paper runs on thin bars', () => {
  it("fill a market order larger than the bars trade as the backtest does: up to each bar's volume, at its open", async () => {
    // 5-minute bars trading 40 shares each: an order for 100 fills over three bars.
    const thin = MINUTE_SERIES[0].slice(0, 12).map((bar) => ({ ...bar, volume: 40 }));
    const buyOnce = (): PreparedStrategy =>
      prepareStrategy(
        defineStrategy({
          name: 'buy-once',
          params: {},
          symbols: [AAPL],
          period: '5m',
          run: (ctx) =>
            ctx.candles().pipe(
              take(1),
              map(() => ctx.buy(100)),
            ),
        }),
        {},
        'buy-once strategy',
      );
    const backtested = await backtest([thin], [buyOnce()]);
    harness = await startPaperHarness({ strategies: [buyOnce()], candles: [thin] });

    await harness.stepAll();

    const expected = backtested.venue.executions().map((fill) => fillRow(fill, '5m'));
    expect(expected.map((row) => row.split(' ').slice(3).join(' '))).toEqual([
      `40 @ ${thin[1]!.open}`,
      `40 @ ${thin[2]!.open}`,
      `20 @ ${thin[3]!.open}`,
    ]);
    expect(harness.sim.venue.executions().map((fill) => fillRow(fill, '5m'))).toEqual(expected);
  });

  it('fill resting limit and MIT orders where the backtest fills them on the bar: at the limit or trigger when the price moves through it', async () => {
    const bars = MINUTE_SERIES[0];
    const series = [bars];
    const resting = (): PreparedStrategy =>
      prepareStrategy(
        defineStrategy({
          name: 'resting',
          params: {},
          symbols: [AAPL],
          period: '5m',
          onCandle(candle, ctx) {
            const level = (Math.round(candle.close * 100) / 100 - 0.3).toFixed(2);
            if (ctx.positions.quantity(candle.symbol).isZero()) return ctx.buy(10, { orderType: 'LO', price: level, timeInForce: 'Day' });
            return ctx.sell(10, { orderType: 'MIT', triggerPrice: level, timeInForce: 'Day' });
          },
        }),
        {},
        'resting strategy',
      );
    // A fill as the comparison sees it: the bar it filled in (the last starting at or before it), side, quantity, price.
    const row = (fill: Fill): string => {
      const bar = bars.findLast((candle) => candle.time <= fill.time)!;
      return `${new Date(bar.time).toISOString()} ${fill.side} ${fill.quantity.toFixed()} @ ${fill.price.toFixed()}`;
    };
    const backtested = await backtest(series, [resting()]);
    harness = await startPaperHarness({ strategies: [resting()], candles: series });

    await harness.stepAll();

    const expected = backtested.venue.executions().map(row);
    const inside = backtested.venue
      .executions()
      .filter((fill) => !bars.some((bar) => bar.time === fill.time && bar.open === fill.price.toNumber()));
    expect(expected.length).toBeGreaterThanOrEqual(10);
    // Most fill inside a bar, where a tick-by-tick venue could fill them elsewhere.
    expect(inside.length).toBeGreaterThanOrEqual(5);
    expect(harness.sim.venue.executions().map(row)).toEqual(expected);
  });
});
