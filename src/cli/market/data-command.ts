// `trader data fetch` (history candles from the service into backtest-data/, one SYMBOL.csv or .parquet per
// symbol) and `trader data convert` (candle CSV files into Parquet).
import type { CommandModule } from 'yargs';
import { PERIODS } from '../../domain/period.js';
import { MARKETS } from '../../domain/symbol.js';
import { ADJUST_TYPES, type AdjustType } from '../../openapi/socket/commands.js';
import { checkOutputFolder } from '../../files/output-file.js';
import { printTable } from '../output.js';
import { listenForInterrupt } from '../research/interrupt.js';
import { projectDataFolder } from '../project/config.js';
import { choiceFlag, dateFlag, periodFlag, symbolFlag } from '../trading/flags.js';
import { present } from '../trading/present.js';
import type { GlobalFlags } from '../trading/session.js';
import { convertToParquet } from './data-convert.js';
import { FILE_FORMATS, fetchHistory, validateRange } from './data-fetch.js';
import { withQuoteClient } from './socket-session.js';

interface FetchArgs extends GlobalFlags {
  readonly symbols: readonly string[];
  readonly period: string;
  readonly from: string;
  readonly to: string;
  /** Default: the project's data folder (trader.json), else backtest-data/ of the working folder. */
  readonly out?: string;
  readonly adjust: string;
  readonly format: string;
}

interface ConvertArgs extends GlobalFlags {
  readonly inputs: readonly string[];
  readonly out?: string;
  readonly symbol?: string;
  readonly market?: string;
  readonly period?: string;
  readonly 'on-bad-row': string;
}

const fetchCommand: CommandModule<object, FetchArgs> = {
  command: 'fetch <symbols..>',
  describe: 'Download history candles into candle files (CSV or Parquet), resuming where existing files end',
  builder: (yargs) =>
    yargs
      .positional('symbols', { type: 'string', array: true, demandOption: true, describe: 'Symbols such as 700.HK AAPL.US' })
      .option('period', { type: 'string', default: 'day', describe: `Bar period: ${PERIODS.join(', ')}` })
      .option('from', { type: 'string', demandOption: true, describe: 'First date, YYYY-MM-DD (market-local)' })
      .option('to', { type: 'string', demandOption: true, describe: 'Last date, YYYY-MM-DD, inclusive' })
      .option('out', {
        type: 'string',
        describe:
          "Directory of the files, SYMBOL.csv or SYMBOL.parquet each (default: the project's data folder, see trader.json; else backtest-data)",
      })
      .option('adjust', { type: 'string', default: 'none', describe: 'Price adjustment: none or forward' })
      .option('format', {
        type: 'string',
        default: 'csv',
        describe: 'File format: csv (appended page by page) or parquet (written whole when the symbol is done or Ctrl-C stops the fetch)',
      })
      .example(
        '$0 data fetch 700.HK AAPL.US --period day --from 2020-01-01 --to 2024-12-31',
        'Five years of daily bars into backtest-data/',
      )
      .example(
        '$0 data fetch 700.HK --period 1m --from 2024-06-01 --to 2024-06-30 --out data/minute',
        'A month of minute bars; run again later to append',
      )
      .example('$0 data fetch AAPL.US --from 2015-01-01 --to 2024-12-31 --format parquet', 'Ten years of daily bars as AAPL.US.parquet'),
  handler: async (args) => {
    const symbols = args.symbols.map((text) => symbolFlag(String(text), 'SYMBOL'));
    const period = periodFlag(String(args.period), '--period');
    const from = dateFlag(args.from, '--from');
    const to = dateFlag(args.to, '--to');
    validateRange(from, to);
    const adjust = choiceFlag(Object.keys(ADJUST_TYPES) as AdjustType[], args.adjust, '--adjust');
    const format = choiceFlag(FILE_FORMATS, args.format, '--format');
    checkOutputFolder('--out', args.out);
    const outDir = args.out ?? (await projectDataFolder());
    // Ctrl-C keeps what has been fetched, reports it and exits 130; the same command resumes from there.
    const interrupt = listenForInterrupt();
    const results = await withQuoteClient(args, (client) =>
      fetchHistory(client, { symbols, period, from, to, outDir, adjust, format, signal: interrupt.signal }, (symbol, message) =>
        process.stderr.write(`data fetch: ${symbol}: ${message}\n`),
      ),
    ).finally(() => interrupt.release());
    present(args, results, () =>
      printTable(
        ['SYMBOL', 'FILE', 'BARS ADDED', 'FROM'],
        results.map((result) => [result.symbol, result.file, result.added, result.resumedFrom]),
      ),
    );
    if (interrupt.signal.aborted) {
      process.stderr.write(`interrupted: the bars fetched are kept; run the same command again to resume\n`);
      process.exitCode = 130;
    }
  },
};

const convertCommand: CommandModule<object, ConvertArgs> = {
  command: 'convert <inputs..>',
  describe: 'Convert candle CSV files (or folders of them) into Parquet files, checked as a backtest reads them',
  builder: (yargs) =>
    yargs
      .positional('inputs', { type: 'string', array: true, demandOption: true, describe: 'CSV files or folders of SYMBOL.csv files' })
      .option('out', {
        type: 'string',
        describe:
          'Directory of the Parquet files (default: beside each CSV file); the folders’ securities.csv and actions.csv are copied there, and the CSV files’ Dividends and Stock Splits go into its actions.csv',
      })
      .option('symbol', { type: 'string', describe: 'The symbol of a single file whose name is not one, e.g. 700.HK' })
      .option('market', {
        type: 'string',
        describe: `The market of files named by their code alone (${MARKETS.join(', ')}): SPY.csv becomes SPY.US.parquet`,
      })
      .option('period', { type: 'string', describe: `Bar period, when the times do not tell it (${PERIODS.join(', ')})` })
      .option('on-bad-row', { type: 'string', default: 'fail', describe: 'Bad rows: fail (list the first 10) or skip them' })
      .example(
        '$0 data convert backtest-data --out parquet-data',
        'Every SYMBOL.csv of the folder as parquet-data/SYMBOL.parquet (beside the CSV files, a backtest of the folder would find two files of each symbol)',
      )
      .example('$0 data convert ~/yahoo --market US --out ~/parquet', 'A folder of SPY.csv, AAPL.csv … into SPY.US.parquet …')
      .example('$0 data convert ~/data/AAPL.US.csv --out ~/parquet', 'One file into another folder')
      .example('$0 data convert prices.csv --symbol 700.HK --json', 'A file not named after its symbol; the result as JSON'),
  handler: async (args) => {
    checkOutputFolder('--out', args.out);
    const job = {
      inputs: args.inputs.map(String),
      ...(args.out === undefined ? {} : { outDir: args.out }),
      ...(args.symbol === undefined ? {} : { symbol: symbolFlag(String(args.symbol), '--symbol') }),
      ...(args.market === undefined ? {} : { market: choiceFlag(MARKETS, String(args.market).toUpperCase(), '--market') }),
      ...(args.period === undefined ? {} : { period: periodFlag(String(args.period), '--period') }),
      onBadRow: choiceFlag(['fail', 'skip'] as const, args['on-bad-row'], '--on-bad-row'),
    };
    // Ctrl-C finishes the file in flight, lists the files converted and exits 130.
    const interrupt = listenForInterrupt();
    const { results, files } = await convertToParquet({ ...job, signal: interrupt.signal }, (message) =>
      process.stderr.write(`data convert: ${message}\n`),
    ).finally(() => interrupt.release());
    present(args, results, () =>
      printTable(
        ['INPUT', 'OUTPUT', 'BARS', 'PERIOD', 'SKIPPED', 'ACTIONS'],
        results.map((result) => [result.input, result.output, result.bars, result.period, result.skippedRows, result.actions]),
      ),
    );
    if (interrupt.signal.aborted && results.length < files) {
      process.stderr.write(`interrupted: ${results.length} of ${files} files converted; run the same command again to convert them all\n`);
      process.exitCode = 130;
    }
  },
};

export const dataCommand: CommandModule<object, GlobalFlags> = {
  command: 'data <action>',
  describe: 'Manage candle data files (fetch history from the service, convert CSV to Parquet)',
  builder: (yargs) =>
    yargs
      .command(fetchCommand)
      .command(convertCommand)
      .demandCommand(1, 'Name an action: fetch or convert')
      .example('$0 data fetch 700.HK --from 2024-01-01 --to 2024-06-30', 'Daily bars of half a year')
      .example('$0 data convert backtest-data --out parquet-data', 'The folder’s CSV files as Parquet, in another folder'),
  handler: () => undefined,
};
