// Backtest test arrangements: hand-made bars, a strategy that emits scripted intents on given bars, and a
// one-call run over them.
import { backtestData } from '../../../src/backtest/data.js';
import { runBacktest, type BacktestOptions, type BacktestRun } from '../../../src/backtest/engine.js';
import type { Candle } from '../../../src/domain/candle.js';
import type { OrderIntent } from '../../../src/domain/intent.js';
import { timeZoneOf } from '../../../src/domain/market-hours.js';
import type { Period } from '../../../src/domain/period.js';
import { marketOf, parseSymbol, type SecuritySymbol } from '../../../src/domain/symbol.js';
import { fromLocal, startOfLocalDay } from '../../../src/domain/time-zone.js';
import type { StrategyContext } from '../../../src/strategy/context.js';
import { defineStrategy } from '../../../src/strategy/define.js';
import { prepareStrategy, type PreparedStrategy } from '../../../src/strategy/prepare.js';

export const AAPL = parseSymbol('AAPL.US');
export const TENCENT = parseSymbol('700.HK');

/** Midnight of a market-local date: how daily bars are stamped. */
export function dayTime(symbol: SecuritySymbol, date: string): number {
  return startOfLocalDay(date, timeZoneOf(marketOf(symbol)));
}

/** An instant of market-local wall time, "2024-01-02 16:00". */
export function localTime(symbol: SecuritySymbol, text: string): number {
  const [date, time] = text.split(' ') as [string, string];
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  return fromLocal({ year, month, day, hour, minute, second: 0 }, timeZoneOf(marketOf(symbol)));
}

export function dayBar(symbol: SecuritySymbol, date: string, open: number, high: number, low: number, close: number, volume = 1_000_000): Candle {
  return { symbol, period: 'day', time: dayTime(symbol, date), open, high, low, close, volume };
}

export function minuteBar(symbol: SecuritySymbol, local: string, open: number, high: number, low: number, close: number, period: Period = '1m', volume = 1_000_000): Candle {
  return { symbol, period, time: localTime(symbol, local), open, high, low, close, volume };
}

/** The context a scripted step sees. */
export type ScriptContext = StrategyContext<Record<string, never>>;

type Step = (ctx: ScriptContext, candle: Candle) => OrderIntent | readonly OrderIntent[] | undefined;

/**
 * A strategy over `symbols` that runs `script[n]` on the n-th candle (0-based, counted over all its
 * symbols in the order it sees them) and emits what it returns.
 */
export function scripted(symbols: readonly SecuritySymbol[], script: Readonly<Record<number, Step>>, period: Period = 'day'): PreparedStrategy {
  const definition = defineStrategy({
    name: 'scripted',
    symbols,
    period,
    init: () => ({ seen: 0 }),
    onCandle(candle, ctx, state) {
      const step = script[state.seen];
      state.seen += 1;
      return step?.(ctx, candle);
    },
  });
  return prepareStrategy(definition, {}, 'scripted strategy');
}

/** Runs strategies over the given bars (one array per symbol). */
export function backtest(series: readonly (readonly Candle[])[], strategies: readonly PreparedStrategy[], options: Partial<BacktestOptions> = {}): Promise<BacktestRun> {
  const data = backtestData(series.map((candles) => ({ symbol: candles[0]!.symbol, period: candles[0]!.period, source: `${candles[0]!.symbol}.csv`, candles: [...candles] })));
  return runBacktest({ strategies, data, keepEvents: true, ...options });
}
