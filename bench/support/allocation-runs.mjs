// The runs the allocation bench weighs (node [flags] bench/support/allocation-runs.mjs CASE FOLDER WARM COUNT),
// on dist/: WARM runs, a full collection, then COUNT runs with no collection between them (the caller gives
// a young generation large enough), and the heap's growth over those COUNT runs is what they allocated.
// Cases: `trial` and `never` are the instructions bench's research trials (16 fast × slow pairs in turn,
// commission 0.001, each bar's close instant remembered across trials) of sma-crossover and of the same
// crossover with every cross dropped; `walk` is sma-every-symbol over every symbol of FOLDER, default
// settings. Prints one JSON line: bytes, fills, runs, and the collections seen while counting (0 for a
// valid count). Plain JavaScript, so node runs it without a loader.
import { PerformanceObserver } from 'node:perf_hooks';

const [kind, folder, warmText, countText] = process.argv.slice(2);
const root = new URL('../../', import.meta.url);
const { loadBacktestData, loadStrategy, runBacktest } = await import(new URL('dist/api/backtest.js', root).href);
const { BarCloseTimes } = await import(new URL('dist/backtest/bar-close.js', root).href);

const data = await loadBacktestData(folder);
const symbols = data.series.map((series) => series.symbol);
let run;
if (kind === 'walk') {
  const strategy = await loadStrategy(new URL('bench/support/sma-every-symbol.ts', root).pathname, { symbols });
  run = () => runBacktest({ strategies: [strategy], data });
} else {
  const file = kind === 'never' ? 'bench/support/never-orders.ts' : 'strategies/sma-crossover.ts';
  const barCloses = new BarCloseTimes(data.period, true);
  const strategies = [];
  for (let index = 0; index < 16; index += 1) {
    const params = { fast: 5 + index, slow: 30 + 7 * index };
    strategies.push(await loadStrategy(new URL(file, root).pathname, { symbols, params }));
  }
  let next = 0;
  run = () =>
    runBacktest({
      strategies: [strategies[next++ % strategies.length]],
      data,
      cash: '1000000',
      venue: { fees: { commissionRate: 0.001 } },
      barCloses,
    });
}

let collections = 0;
new PerformanceObserver((list) => {
  collections += list.getEntries().length;
}).observe({ entryTypes: ['gc'] });
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

for (let index = 0; index < Number(warmText); index += 1) await run();
globalThis.gc();
await settle();
const seen = collections;
const before = process.memoryUsage().heapUsed;
let fills = 0;
const count = Number(countText);
for (let index = 0; index < count; index += 1) fills += (await run()).record.fills.length;
const after = process.memoryUsage().heapUsed;
await settle();
process.stdout.write(`${JSON.stringify({ bytes: after - before, fills, runs: count, collections: collections - seen })}\n`);
