// The trials the instructions bench counts (node bench/support/instruction-runs.mjs FOLDER COUNT), on dist/:
// COUNT research trials of sma-crossover (16 fast × slow pairs in turn, commission 0.001) over the one symbol
// of FOLDER, each bar's close instant remembered across trials as `trader optimize` does. Plain JavaScript, so
// node runs it under valgrind without a loader.
const [folder, countText] = process.argv.slice(2);
const count = Number(countText);
const root = new URL('../../', import.meta.url);
const { loadBacktestData, loadStrategy, runBacktest } = await import(new URL('dist/api/backtest.js', root).href);
const { BarCloseTimes } = await import(new URL('dist/backtest/bar-close.js', root).href);

const data = await loadBacktestData(folder);
const symbols = data.series.map((series) => series.symbol);
const barCloses = new BarCloseTimes(data.period, true);
const strategies = [];
for (let index = 0; index < 16; index += 1) {
  const params = { fast: 5 + index, slow: 30 + 7 * index };
  strategies.push(await loadStrategy(new URL('strategies/sma-crossover.ts', root).pathname, { symbols, params }));
}
let fills = 0;
for (let index = 0; index < count; index += 1) {
  const strategy = strategies[index % strategies.length];
  const run = await runBacktest({ strategies: [strategy], data, cash: '1000000', venue: { fees: { commissionRate: 0.001 } }, barCloses });
  fills += run.record.fills.length;
}
process.stdout.write(`${JSON.stringify({ fills, bars: data.series.reduce((sum, series) => sum + series.columns.length, 0) })}\n`);
