// Measures the output half of a backtest: metrics + JSON result on 1,000,000 bars, and the HTML report on 200,000.
import { performance } from 'node:perf_hooks';
import { createEquityRecorder } from '../src/backtest/metrics/equity-recorder.js';
import { renderReport } from '../src/backtest/report/html.js';
import { buildResult, formatResultJson } from '../src/backtest/report/result-builder.js';
import type { BacktestRecord } from '../src/backtest/result.js';
import type { Candle } from '../src/domain/candle.js';
import { Money, Price, Quantity } from '../src/domain/index.js';
import type { Fill } from '../src/domain/fill.js';
import { parseSymbol } from '../src/domain/symbol.js';

const SYMBOL = parseSymbol('SPY.US');
const MINUTE = 60_000;

/** A minute-bar random walk with a round trip every 100 bars, marked to market like the engine does. */
function syntheticRun(count: number): BacktestRecord {
  const candles: Candle[] = new Array(count);
  const fills: Fill[] = [];
  const recorder = createEquityRecorder(count);
  let state = 7;
  let price = 100;
  let cash = 1_000_000;
  let position = 0;
  for (let index = 0; index < count; index += 1) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    const open = price;
    price = Math.max(1, Math.round(price * (1 + (state / 2_147_483_648 - 0.5) * 0.002) * 100) / 100);
    const time = Date.UTC(2020, 0, 2, 14, 30) + Math.floor(index / 390) * 86_400_000 + (index % 390) * MINUTE;
    candles[index] = {
      symbol: SYMBOL,
      period: '1m',
      time,
      open,
      high: Math.max(open, price) + 0.01,
      low: Math.min(open, price) - 0.01,
      close: price,
      volume: 100,
    };
    if (index % 100 === 1 || index % 100 === 51) {
      const side = index % 100 === 1 ? 'Buy' : 'Sell';
      const quantity = 100;
      fills.push({
        fillId: `o${index}:100`,
        orderId: `o${index}`,
        symbol: SYMBOL,
        side,
        quantity: Quantity.of(quantity),
        price: Price.of(open),
        time,
        commission: Money.of('1.5', 'USD'),
      });
      position += side === 'Buy' ? quantity : -quantity;
      cash += (side === 'Buy' ? -quantity : quantity) * open - 1.5;
    }
    recorder.record({ time, equity: cash + position * price, exposed: position !== 0 });
  }
  return {
    strategy: 'bench',
    period: '1m',
    currency: 'USD',
    initialCash: Money.of(1_000_000, 'USD'),
    bars: new Map([[SYMBOL, candles]]),
    equity: recorder.curve(),
    fills,
    activity: { intents: fills.length, orders: fills.length, denialsByCode: {}, denials: [] },
  };
}

function timed<T>(work: () => T): [T, number] {
  const start = performance.now();
  const value = work();
  return [value, performance.now() - start];
}

export default async function bench(): Promise<void> {
  const big = syntheticRun(1_000_000);
  buildResult(syntheticRun(10_000)); // warm-up
  const [result, resultMs] = timed(() => buildResult(big));
  const [json, jsonMs] = timed(() => formatResultJson(result));
  console.log(
    `buildResult: 1,000,000 bars, ${big.fills.length.toLocaleString('en-US')} fills, ${result.trades.length.toLocaleString('en-US')} trades in ${resultMs.toFixed(0)} ms (${((1_000_000 / resultMs) * 1000).toExponential(2)} bars/s)`,
  );
  console.log(`formatResultJson: ${(json.length / 1e6).toFixed(1)} MB in ${jsonMs.toFixed(0)} ms`);

  const medium = syntheticRun(200_000);
  const mediumResult = buildResult(medium);
  const start = performance.now();
  const html = await renderReport(medium, mediumResult);
  console.log(
    `renderReport: 200,000 bars, ${mediumResult.trades.length.toLocaleString('en-US')} trades → ${(Buffer.byteLength(html) / 1e6).toFixed(1)} MB in ${(performance.now() - start).toFixed(0)} ms`,
  );
}
