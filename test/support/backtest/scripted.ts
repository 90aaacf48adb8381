// Backtest test arrangements: hand-made bars, a strategy that emits scripted intents on given bars, and a
// one-call run over them.
import { backtestData } from '../../../src/backtest/data.js';
import { runBacktest, type BacktestOptions, type BacktestRun } from '../../../src/backtest/engine.js';
import type { Candle } from '../../../src/domain/candle.js';
import type { OrderIntent } from '../../../src/domain/intent.js';
import type { Period } from '../../../src/domain/period.js';
import { parseSymbol, type SecuritySymbol } from '../../../src/domain/symbol.js';
import type { StrategyContext } from '../../../src/strategy/context.js';
import { defineStrategy } from '../../../src/strategy/define.js';
import { prepareStrategy, type PreparedStrategy } from '../../../src/strategy/prepare.js';
import { localTime } from '../market-bars.js';

export { dayBar, dayTime, localTime } from '../market-bars.js';

export const AAPL = parseSymbol('AAPL.US');
export const TENCENT = parseSymbol('700.HK');

export function minuteBar(
  symbol: SecuritySymbol,
  local: string,
  open: number,
  high: number,
  low: number,
  close: number,
  period: Period = '1m',
  volume = 1_000_000,
): Candle {
  return { symbol, period, time: localTime(symbol, local), open, high, low, close, volume };
}

/** The context a scripted step sees. */
export type ScriptContext = StrategyContext<Record<string, never>>;

type Step = (ctx: ScriptContext, candle: Candle) => OrderIntent | readonly OrderIntent[] | undefined;

/**
 * A strategy over `symbols` that runs `script[n]` on the n-th candle (0-based, counted over all its
 * symbols in the order it sees them) and emits what it returns.
 */
export function scripted(
  symbols: readonly SecuritySymbol[],
  script: Readonly<Record<number, Step>>,
  period: Period = 'day',
): PreparedStrategy {
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
export function backtest(
  series: readonly (readonly Candle[])[],
  strategies: readonly PreparedStrategy[],
  options: Partial<BacktestOptions> = {},
): Promise<BacktestRun> {
  const data = backtestData(
    series.map((candles) => ({
      symbol: candles[0]!.symbol,
      period: candles[0]!.period,
      source: `${candles[0]!.symbol}.csv`,
      candles: [...candles],
    })),
  );
  return runBacktest({ strategies, data, keepEvents: true, keepIntents: true, ...options });
}
