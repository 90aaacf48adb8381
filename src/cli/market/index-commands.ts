// `trader calc-indexes`, `trader temperature`, `trader quote-profile`: computed indexes of securities, the
// market temperature now or by day, and the account's quote access (member id, level, packages).
import type { CommandModule } from 'yargs';
import { Decimal } from '../../domain/decimal.js';
import { InvalidInputError } from '../../domain/errors.js';
import { MARKETS } from '../../domain/symbol.js';
import { CALC_INDEXES, type CalcIndex } from '../../openapi/socket/reference-enums.js';
import { printTable } from '../output.js';
import { choiceFlag, dateFlag, symbolFlag } from '../trading/flags.js';
import { line, present, printFields, time } from '../trading/present.js';
import { withOpenApi, type GlobalFlags } from '../trading/session.js';
import { withQuoteClient } from './socket-session.js';

/** What `trader calc-indexes` shows without --index. */
const DEFAULT_INDEXES: readonly CalcIndex[] = [
  'lastDone',
  'changeRate',
  'volume',
  'turnover',
  'amplitude',
  'volumeRatio',
  'turnoverRate',
  'totalMarketValue',
  'peTtmRatio',
  'pbRatio',
  'fiveDayChangeRate',
  'ytdChangeRate',
];

interface CalcArgs extends GlobalFlags {
  readonly symbols: readonly string[];
  readonly index?: readonly string[];
}

/** `--index a,b --index c` or `--index all` → the indexes, each checked. */
export function calcIndexFlags(values: readonly string[] | undefined): CalcIndex[] {
  const names = (values ?? [])
    .flatMap((value) => String(value).split(','))
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) return [...DEFAULT_INDEXES];
  if (names.some((name) => name.toLowerCase() === 'all')) return [...CALC_INDEXES];
  return [...new Set(names.map((name) => choiceFlag(CALC_INDEXES, name, '--index')))];
}

export const calcIndexesCommand: CommandModule<object, CalcArgs> = {
  command: 'calc-indexes <symbols..>',
  describe: 'Show computed indexes of stocks, options or warrants: change rates, ratios, valuation, Greeks, …',
  builder: (yargs) =>
    yargs
      .positional('symbols', { type: 'string', array: true, demandOption: true, describe: 'Symbols (stocks, options, warrants)' })
      .option('index', {
        type: 'string',
        array: true,
        describe: `Indexes, comma-separated or repeated, or "all": ${CALC_INDEXES.join(', ')}`,
      })
      .example('$0 calc-indexes 700.HK AAPL.US', 'Change, volume ratio, turnover rate, P/E, P/B, …')
      .example('$0 calc-indexes AAPL240216C190000.US --index impliedVolatility,delta,gamma,theta,vega,rho', 'Greeks of an option')
      .example('$0 calc-indexes 700.HK --index all --json', 'Every index as JSON'),
  handler: async (args) => {
    const symbols = args.symbols.map((text) => symbolFlag(String(text), 'SYMBOL'));
    const indexes = calcIndexFlags(args.index);
    const rows = await withQuoteClient(args, (client) => client.calcIndexes(symbols, indexes));
    present(args, rows, () => {
      if (rows.length === 0) return line('no indexes (unknown symbols?)');
      const cell = (value: unknown): string => (value === undefined ? '' : value instanceof Decimal ? value.toFixed() : String(value));
      printTable(
        ['INDEX', ...rows.map((row) => row.symbol)],
        indexes.map((index) => [index, ...rows.map((row) => cell(row[index]))]),
      );
    });
  },
};

interface TemperatureArgs extends GlobalFlags {
  readonly market: string;
  readonly from?: string;
  readonly to?: string;
}

export const temperatureCommand: CommandModule<object, TemperatureArgs> = {
  command: 'temperature',
  describe: "Show a market's temperature (0 cold … 100 hot, with valuation and sentiment), now or by day",
  builder: (yargs) =>
    yargs
      .option('market', { type: 'string', demandOption: true, describe: `Market: ${MARKETS.join(', ')}` })
      .option('from', { type: 'string', describe: 'First date (YYYY-MM-DD) of a history, with --to' })
      .option('to', { type: 'string', describe: 'Last date (YYYY-MM-DD) of a history' })
      .example('$0 temperature --market HK', 'The temperature now')
      .example('$0 temperature --market US --from 2024-01-01 --to 2024-03-31 --json', 'A quarter of daily readings as JSON'),
  handler: async (args) => {
    const market = choiceFlag(MARKETS, args.market, '--market');
    if ((args.from === undefined) !== (args.to === undefined))
      throw new InvalidInputError('--from and --to go together', args.from === undefined ? '--from' : '--to');
    if (args.from === undefined || args.to === undefined) {
      const reading = await withOpenApi(args, (client) => client.marketTemperature(market));
      present(args, reading, () =>
        printFields([
          ['Market', market],
          ['Temperature', `${reading.temperature} (${reading.description})`],
          ['Valuation', reading.valuation],
          ['Sentiment', reading.sentiment],
          ['Updated', time(reading.updatedAt)],
        ]),
      );
      return;
    }
    const from = dateFlag(args.from, '--from');
    const to = dateFlag(args.to, '--to');
    if (from > to) throw new InvalidInputError(`--from ${from} is after --to ${to}`, '--from');
    const history = await withOpenApi(args, (client) => client.historyMarketTemperature(market, from, to));
    present(args, history, () =>
      history.records.length === 0
        ? line(`no readings for ${market} from ${from} to ${to}`)
        : printTable(
            ['TIME', 'TEMPERATURE', 'VALUATION', 'SENTIMENT'],
            history.records.map((row) => [time(row.time), row.temperature, row.valuation, row.sentiment]),
          ),
    );
  },
};

export const quoteProfileCommand: CommandModule<object, GlobalFlags> = {
  command: 'quote-profile',
  describe: "Show the account's quote access: member id, quote level and the quote packages held",
  builder: (yargs) => yargs.example('$0 quote-profile', 'Level and packages').example('$0 quote-profile --json', 'As JSON'),
  handler: async (args) => {
    const profile = await withQuoteClient(args, async (client) => ({
      memberId: client.memberId,
      quoteLevel: client.quoteLevel,
      subscribeLimit: client.maxSymbols,
      packages: client.quotePackages(),
    }));
    present(args, profile, () => {
      printFields([
        ['Member id', profile.memberId],
        ['Quote level', profile.quoteLevel],
        ['Subscription limit', profile.subscribeLimit],
      ]);
      if (profile.packages.length === 0) return line('no quote packages');
      line('');
      printTable(
        ['PACKAGE', 'NAME', 'FROM', 'UNTIL'],
        profile.packages.map((row) => [row.key, row.name, time(row.startAt), time(row.endAt)]),
      );
    });
  },
};
