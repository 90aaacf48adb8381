// `trader data fetch`: history candles from the service into backtest-data/ (one SYMBOL.csv per symbol).
import type { CommandModule } from 'yargs';
import { parsePeriod, PERIODS } from '../../domain/period.js';
import { ADJUST_TYPES, type AdjustType } from '../../openapi/socket/commands.js';
import { printTable } from '../output.js';
import { projectDataFolder } from '../project/config.js';
import { choiceFlag, dateFlag, symbolFlag } from '../trading/flags.js';
import { present } from '../trading/present.js';
import type { GlobalFlags } from '../trading/session.js';
import { fetchHistory, validateRange } from './data-fetch.js';
import { withQuoteClient } from './socket-session.js';

interface FetchArgs extends GlobalFlags {
  readonly symbols: readonly string[];
  readonly period: string;
  readonly from: string;
  readonly to: string;
  /** Default: the project's data folder (trader.json), else backtest-data/ of the working folder. */
  readonly out?: string;
  readonly adjust: string;
}

const fetchCommand: CommandModule<object, FetchArgs> = {
  command: 'fetch <symbols..>',
  describe: 'Download history candles into candle CSV files, resuming where existing files end',
  builder: (yargs) =>
    yargs
      .positional('symbols', { type: 'string', array: true, demandOption: true, describe: 'Symbols such as 700.HK AAPL.US' })
      .option('period', { type: 'string', default: 'day', describe: `Bar period: ${PERIODS.join(', ')}` })
      .option('from', { type: 'string', demandOption: true, describe: 'First date, YYYY-MM-DD (market-local)' })
      .option('to', { type: 'string', demandOption: true, describe: 'Last date, YYYY-MM-DD, inclusive' })
      .option('out', {
        type: 'string',
        describe: "Directory of the CSV files, SYMBOL.csv each (default: the project's data folder, see trader.json; else backtest-data)",
      })
      .option('adjust', { type: 'string', default: 'none', describe: 'Price adjustment: none or forward' })
      .example(
        '$0 data fetch 700.HK AAPL.US --period day --from 2020-01-01 --to 2024-12-31',
        'Five years of daily bars into backtest-data/',
      )
      .example(
        '$0 data fetch 700.HK --period 1m --from 2024-06-01 --to 2024-06-30 --out data/minute',
        'A month of minute bars; run again later to append',
      ),
  handler: async (args) => {
    const symbols = args.symbols.map((text) => symbolFlag(String(text), 'SYMBOL'));
    const period = parsePeriod(String(args.period));
    const from = dateFlag(args.from, '--from');
    const to = dateFlag(args.to, '--to');
    validateRange(from, to);
    const adjust = choiceFlag(Object.keys(ADJUST_TYPES) as AdjustType[], args.adjust, '--adjust');
    const outDir = args.out ?? (await projectDataFolder());
    const results = await withQuoteClient(args, (client) =>
      fetchHistory(client, { symbols, period, from, to, outDir, adjust }, (symbol, message) =>
        process.stderr.write(`data fetch: ${symbol}: ${message}\n`),
      ),
    );
    present(args, results, () =>
      printTable(
        ['SYMBOL', 'FILE', 'BARS ADDED', 'FROM'],
        results.map((result) => [result.symbol, result.file, result.added, result.resumedFrom]),
      ),
    );
  },
};

export const dataCommand: CommandModule<object, GlobalFlags> = {
  command: 'data <action>',
  describe: 'Manage candle data files (fetch history from the service)',
  builder: (yargs) =>
    yargs
      .command(fetchCommand)
      .demandCommand(1, 'Name an action: fetch')
      .example('$0 data fetch 700.HK --from 2024-01-01 --to 2024-06-30', 'Daily bars of half a year'),
  handler: () => undefined,
};
