// Bars per second through the whole backtest pipeline (strategy → risk → executor → backtest broker →
// simulated venue, equity marked per bar) for sma-crossover on 1,000,000 bars of one symbol and on
// 100 symbols × 10,000 bars. Uses the real hourly history in ../shared/data/us-hour when present (repeated
// with shifted times), generated random walks otherwise. Prints measured figures only.
//
// Each case runs once cold (the first run also pays for compiling the order path; that figure is printed
// too), then RUNS more times, each with fresh strategies, venue and runtime; the figure of a case is the
// median of those runs, with the fastest and slowest beside it (this 2-core machine's runs vary by tens of
// percent from one run to the next).
import { existsSync } from 'node:fs';
import type { BacktestData } from '../src/backtest/data.js';
import type { Candle, Period, SecuritySymbol } from '../src/domain/index.js';
import { built, usingBuild } from './support/built.js';

// The library as `trader backtest` runs it (dist/), src/ without a build; the strategy compiled as trader loads it.
const { backtestData } = await built<typeof import('../src/backtest/data.js')>('backtest/data.js');
const { runBacktest } = await built<typeof import('../src/backtest/engine.js')>('backtest/engine.js');
const { parseSymbol } = await built<typeof import('../src/domain/index.js')>('domain/index.js');
const { loadCandles } = await built<typeof import('../src/feeds/history/candle-files.js')>('feeds/history/candle-files.js');
const { parseRiskConfig } = await built<typeof import('../src/risk/config.js')>('risk/config.js');
const { loadStrategy, prepareStrategy } = await built<typeof import('../src/strategy/index.js')>('strategy/index.js');
const smaCrossover = (await loadStrategy(new URL('../strategies/sma-crossover.ts', import.meta.url).pathname)).definition;

const HOUR_MS = 3_600_000;
const CYCLE_MS = 146_097 * 86_400_000;
const REAL_DATA = new URL('../../shared/data/us-hour/', import.meta.url);
const RISK = parseRiskConfig({ maxOrderNotional: 10_000_000, maxPositionPerSymbol: 10_000, maxOrdersPerMinute: 1_000, maxDrawdown: 0.9 });

interface Source {
  readonly label: string;
  readonly period: Period;
  /** Price paths to cut bars from (open, high, low, close, volume); bar times come from the first path. */
  readonly paths: readonly (readonly Candle[])[];
}

async function realSource(): Promise<Source | undefined> {
  if (!existsSync(REAL_DATA)) return undefined;
  const paths: Candle[][] = [];
  for (const name of ['SPY', 'AAPL']) {
    const loaded = await loadCandles(new URL(`${name}.csv`, REAL_DATA).pathname, { symbols: [parseSymbol(`${name}.US`)] });
    paths.push(loaded.series[0]!.candles);
  }
  return {
    label: `real hourly bars of SPY and AAPL (../shared/data/us-hour, ${paths.map((path) => path.length).join(' + ')} bars), times repeated 400 years apart`,
    period: '60m',
    paths,
  };
}

function generatedSource(): Source {
  const paths = [1, 2].map((seed) => {
    let state = seed;
    let price = 100;
    // Seven hourly bars a weekday from 09:30 New York (14:30 UTC in winter), like the real hourly files.
    const start = Date.UTC(2000, 0, 3, 14, 30);
    return Array.from({ length: 50_000 }, (_, index): Candle => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      const open = price;
      price = Math.max(1, Math.round(price * (1 + (state / 2_147_483_648 - 0.5) * 0.01) * 100) / 100);
      const day = Math.floor(index / 7);
      const time = start + (Math.floor(day / 5) * 7 + (day % 5)) * 86_400_000 + (index % 7) * HOUR_MS;
      return {
        symbol: parseSymbol('GEN.US'),
        period: '60m',
        time,
        open,
        high: Math.max(open, price) + 0.05,
        low: Math.min(open, price) - 0.05,
        close: price,
        volume: 1_000_000,
      };
    });
  });
  return { label: 'generated random walks (no ../shared/data/us-hour)', period: '60m', paths };
}

/**
 * `count` bars of each symbol: prices cut from path k (the kth symbol) from k × 397 on, times those of the
 * first path, both repeated as often as needed. Each repetition of the times moves 400 years on (146,097
 * days, the Gregorian cycle), so dates keep their weekdays and bars stay inside the sessions. The candles
 * are made in time order across the symbols, as loadCandles makes those of a folder of files.
 */
function interleavedSeries(source: Source, symbols: readonly SecuritySymbol[], count: number): Candle[][] {
  const times = source.paths[0]!;
  const out = symbols.map((): Candle[] => new Array(count));
  for (let index = 0; index < count; index += 1) {
    const time = times[index % times.length]!.time + Math.floor(index / times.length) * CYCLE_MS;
    for (let which = 0; which < symbols.length; which += 1) {
      const prices = source.paths[which % source.paths.length]!;
      const bar = prices[(which * 397 + index) % prices.length]!;
      out[which]![index] = {
        symbol: symbols[which]!,
        period: source.period,
        time,
        open: bar.open,
        high: bar.high,
        low: bar.low,
        close: bar.close,
        volume: bar.volume,
      };
    }
  }
  return out;
}

const RUNS = Number(process.env.BENCH_RUNS ?? 5);

interface Measured {
  /** Median seconds of the measured runs. */
  readonly seconds: number;
  readonly orders: number;
}

interface Timed {
  readonly seconds: number;
  /** CPU seconds of the process over the run (all threads: the GC's helpers count too). */
  readonly cpu: number;
  readonly summary: { intents: number; orders: number; fills: number; denials: number };
}

async function timedRun(data: BacktestData): Promise<Timed> {
  const strategies = data.series.map((one) => prepareStrategy(smaCrossover, { symbols: [one.symbol], period: data.period }));
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  const run = await runBacktest({ strategies, data, cash: 100_000_000, risk: RISK });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(cpu);
  return { seconds, cpu: (used.user + used.system) / 1e6, summary: run.summary };
}

async function measure(label: string, data: BacktestData): Promise<Measured> {
  const bars = data.series.reduce((sum, one) => sum + one.candles.length, 0);
  const rate = (seconds: number): string => `${Math.round(bars / seconds).toLocaleString('en-US')} bars/s`;
  const cold = await timedRun(data);
  const runs: Timed[] = [];
  for (let run = 0; run < RUNS; run += 1) runs.push(await timedRun(data));
  const times = runs.map((run) => run.seconds).sort((a, b) => a - b);
  const cpus = runs.map((run) => run.cpu).sort((a, b) => a - b);
  const median = times[Math.floor((times.length - 1) / 2)]!;
  const medianCpu = cpus[Math.floor((cpus.length - 1) / 2)]!;
  const { intents, orders, fills, denials } = cold.summary;
  console.log(
    `${label}: ${bars.toLocaleString('en-US')} bars, median of ${RUNS} runs ${median.toFixed(3)} s = ${rate(median)} ` +
      `(fastest ${rate(times[0]!)}, slowest ${rate(times[times.length - 1]!)}; first, cold run ${rate(cold.seconds)}; ` +
      `median CPU ${medianCpu.toFixed(3)} s = ${rate(medianCpu)} of CPU time, the figure to compare on a shared machine) ` +
      `(${intents} intents, ${orders} orders, ${fills} fills, ${denials} denials)`,
  );
  return { seconds: median, orders };
}

/** The same pipeline over a steady rise: the averages never cross, so there is no intent and no order. */
function steadyRise(count: number): BacktestData {
  const symbol = parseSymbol('SPY.US');
  const start = Date.UTC(2000, 0, 3, 14, 30);
  const candles = Array.from({ length: count }, (_, index): Candle => {
    const price = 100 + index * 0.001;
    return {
      symbol,
      period: '60m',
      time: start + index * HOUR_MS,
      open: price,
      high: price + 0.01,
      low: price - 0.01,
      close: price,
      volume: 1_000_000,
    };
  });
  return backtestData([{ symbol, period: '60m', source: 'bench', candles }]);
}

export default async function main(): Promise<void> {
  const source = (await realSource()) ?? generatedSource();
  console.log(`data: ${source.label}; code: ${usingBuild ? 'dist/ (as trader runs it)' : 'src/ through tsx (no build)'}`);
  console.log(`each case: one cold run, then the median of ${RUNS} runs (BENCH_RUNS to change)`);
  const baseline = await measure(
    'baseline: sma-crossover 10/30 on a steady rise (no intents), 1 symbol × 1,000,000 bars',
    steadyRise(1_000_000),
  );
  const one = parseSymbol('SPY.US');
  const single = await measure(
    'sma-crossover 10/30, 1 symbol × 1,000,000 bars',
    backtestData([{ symbol: one, period: source.period, source: 'bench', candles: interleavedSeries(source, [one], 1_000_000)[0]! }]),
  );
  console.log(
    `  → the order path costs about ${(((single.seconds - baseline.seconds) / single.orders) * 1e6).toFixed(0)} µs per order (median time above the baseline's / orders)`,
  );
  const symbols = Array.from({ length: 100 }, (_, index) => parseSymbol(`S${index}.US`));
  const many = interleavedSeries(source, symbols, 10_000).map((candles, index) => ({
    symbol: symbols[index]!,
    period: source.period,
    source: 'bench',
    candles,
  }));
  await measure('sma-crossover 10/30, 100 symbols × 10,000 bars', backtestData(many));
}
