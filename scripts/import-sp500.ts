// Regenerates backtest-data/SPX.US.csv from the S&P 500 daily file of the npm package vega-datasets
// (BSD-3-Clause): drops the adjusted-close column and trailing zeros. Run: npx tsx scripts/import-sp500.ts
import { readFile, writeFile } from 'node:fs/promises';

// The package's exports map hides its data folder from resolution, so read it by path.
const source = new URL('../node_modules/vega-datasets/data/sp500-2000.csv', import.meta.url);
const lines = (await readFile(source, 'utf8')).trim().split('\n');
const trim = (text: string): string => (text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text);
const rows = lines.slice(1).map((line) => {
  const [date, open, high, low, close, , volume] = line.split(',');
  return [date, trim(open!), trim(high!), trim(low!), trim(close!), volume].join(',');
});
await writeFile(new URL('../backtest-data/SPX.US.csv', import.meta.url), `${['date,open,high,low,close,volume', ...rows].join('\n')}\n`);
console.log(`wrote ${rows.length} bars from ${source.pathname}`);
