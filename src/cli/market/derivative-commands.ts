// `trader option-chain`, `trader option-quote`, `trader warrant-quote`, `trader warrant-issuers`, `trader warrants`:
// option chains and quotes, and warrants (HK) with the service's screener.
import type { CommandModule } from 'yargs';
import { InvalidInputError } from '../../domain/errors.js';
import type { WarrantQuery } from '../../openapi/socket/quote-requests.js';
import {
  WARRANT_BOUNDS,
  WARRANT_EXPIRY_BANDS,
  WARRANT_LANGUAGES,
  WARRANT_SORT_KEYS,
  WARRANT_STATUSES,
  WARRANT_TYPES,
} from '../../openapi/socket/reference-enums.js';
import { printTable } from '../output.js';
import { choiceFlag, countFlag, dateFlag, symbolFlag } from '../trading/flags.js';
import { decimal, line, present, time } from '../trading/present.js';
import type { GlobalFlags } from '../trading/session.js';
import { withQuoteClient } from './socket-session.js';

interface ChainArgs extends GlobalFlags {
  readonly symbol: string;
  readonly expiry?: string;
}

export const optionChainCommand: CommandModule<object, ChainArgs> = {
  command: 'option-chain <symbol>',
  describe: 'List the expiry dates of the options on a security, or with --expiry the strikes of one date',
  builder: (yargs) =>
    yargs
      .positional('symbol', { type: 'string', demandOption: true, describe: 'The underlying, e.g. AAPL.US' })
      .option('expiry', { type: 'string', describe: 'An expiry date (YYYY-MM-DD): list its strikes with call and put symbols' })
      .example('$0 option-chain AAPL.US', 'Expiry dates')
      .example('$0 option-chain AAPL.US --expiry 2024-02-16', 'Strikes of one expiry, with the symbols to quote'),
  handler: async (args) => {
    const symbol = symbolFlag(String(args.symbol), 'SYMBOL');
    if (args.expiry === undefined) {
      const dates = await withQuoteClient(args, (client) => client.optionChainDates(symbol));
      present(args, dates, () => (dates.length === 0 ? line(`no options on ${symbol}`) : line(dates.join('\n'))));
      return;
    }
    const expiry = dateFlag(args.expiry, '--expiry');
    const strikes = await withQuoteClient(args, (client) => client.optionChainStrikes(symbol, expiry));
    present(args, strikes, () =>
      strikes.length === 0
        ? line(`no options on ${symbol} expiring ${expiry} (see \`trader option-chain ${symbol}\`)`)
        : printTable(
            ['STRIKE', 'CALL', 'PUT', 'STANDARD'],
            strikes.map((row) => [decimal(row.price), row.callSymbol, row.putSymbol, row.standard ? 'yes' : 'no']),
          ),
    );
  },
};

interface SymbolsArgs extends GlobalFlags {
  readonly symbols: readonly string[];
}

const derivativeSymbols = (args: SymbolsArgs): string[] => args.symbols.map((text) => symbolFlag(String(text), 'SYMBOL'));

export const optionQuoteCommand: CommandModule<object, SymbolsArgs> = {
  command: 'option-quote <symbols..>',
  describe: 'Show option quotes with their terms, implied volatility and open interest',
  builder: (yargs) =>
    yargs
      .positional('symbols', { type: 'string', array: true, demandOption: true, describe: 'Option symbols from `trader option-chain`' })
      .example('$0 option-quote AAPL240216C190000.US AAPL240216P190000.US', 'A call and a put')
      .example('$0 option-quote AAPL240216C190000.US --json', 'Every field as JSON'),
  handler: async (args) => {
    const symbols = derivativeSymbols(args);
    const quotes = await withQuoteClient(args, (client) => client.optionQuote(symbols));
    present(args, quotes, () =>
      quotes.length === 0
        ? line('no quotes (are these option symbols?)')
        : printTable(
            ['SYMBOL', 'LAST', 'PREV CLOSE', 'VOLUME', 'OPEN INT', 'IV', 'STRIKE', 'EXPIRY', 'DIRECTION', 'TYPE', 'UNDERLYING', 'TIME'],
            quotes.map((row) => [
              row.symbol,
              decimal(row.lastDone),
              decimal(row.prevClose),
              row.volume,
              row.openInterest,
              decimal(row.impliedVolatility),
              decimal(row.strikePrice),
              row.expiryDate,
              row.direction,
              row.contractType,
              row.underlyingSymbol,
              time(row.timestamp),
            ]),
          ),
    );
  },
};

export const warrantQuoteCommand: CommandModule<object, SymbolsArgs> = {
  command: 'warrant-quote <symbols..>',
  describe: 'Show quotes of HK warrants and CBBCs with their terms',
  builder: (yargs) =>
    yargs
      .positional('symbols', { type: 'string', array: true, demandOption: true, describe: 'Warrant symbols, e.g. from `trader warrants`' })
      .example('$0 warrant-quote 20000.HK 60004.HK', 'A warrant and a CBBC')
      .example('$0 warrant-quote 20000.HK --json', 'Every field as JSON'),
  handler: async (args) => {
    const symbols = derivativeSymbols(args);
    const quotes = await withQuoteClient(args, (client) => client.warrantQuote(symbols));
    present(args, quotes, () =>
      quotes.length === 0
        ? line('no quotes (are these warrant symbols?)')
        : printTable(
            [
              'SYMBOL',
              'CATEGORY',
              'LAST',
              'PREV CLOSE',
              'VOLUME',
              'STRIKE',
              'UPPER',
              'LOWER',
              'CALL PRICE',
              'RATIO',
              'EXPIRY',
              'UNDERLYING',
            ],
            quotes.map((row) => [
              row.symbol,
              row.category,
              decimal(row.lastDone),
              decimal(row.prevClose),
              row.volume,
              decimal(row.strikePrice),
              decimal(row.upperStrikePrice),
              decimal(row.lowerStrikePrice),
              decimal(row.callPrice),
              decimal(row.conversionRatio),
              row.expiryDate,
              row.underlyingSymbol,
            ]),
          ),
    );
  },
};

export const warrantIssuersCommand: CommandModule<object, GlobalFlags> = {
  command: 'warrant-issuers',
  describe: 'List the warrant issuers and their ids (for `trader warrants --issuer`)',
  builder: (yargs) => yargs.example('$0 warrant-issuers', 'Every issuer').example('$0 warrant-issuers --json', 'As JSON'),
  handler: async (args) => {
    const issuers = await withQuoteClient(args, (client) => client.warrantIssuers());
    present(args, issuers, () =>
      printTable(
        ['ID', 'NAME'],
        issuers.map((row) => [row.issuerId, row.nameEn || row.nameHk || row.nameCn]),
      ),
    );
  },
};

interface WarrantsArgs extends GlobalFlags {
  readonly symbol: string;
  readonly sortBy?: string;
  readonly order?: string;
  readonly type?: readonly string[];
  readonly issuer?: readonly number[];
  readonly expiry?: readonly string[];
  readonly bounds?: readonly string[];
  readonly status?: readonly string[];
  readonly lang?: string;
  readonly offset?: number;
  readonly count?: number;
}

/** Validates the screener flags before anything is sent. */
export function warrantQuery(args: WarrantsArgs): WarrantQuery {
  const issuers = (args.issuer ?? []).map((value) => {
    // yargs turns a word into NaN before we see it.
    if (!Number.isInteger(Number(value)))
      throw new InvalidInputError(
        `--issuer: ${Number.isNaN(Number(value)) ? 'not a number' : `"${value}" is not a whole number`}: issuer ids come from \`trader warrant-issuers\``,
        '--issuer',
      );
    return Number(value);
  });
  const offset = args.offset === undefined ? undefined : Number(args.offset);
  if (offset !== undefined && !(Number.isInteger(offset) && offset >= 0))
    throw new InvalidInputError(`--offset: must be a whole number ≥ 0 (got ${args.offset})`, '--offset');
  // Without a page size the service pages nothing, so an offset alone would be ignored silently.
  if (offset !== undefined && args.count === undefined) throw new InvalidInputError('--offset applies with --count', '--offset');
  return {
    sortBy: choiceFlag(WARRANT_SORT_KEYS, args.sortBy ?? 'volume', '--sort-by'),
    order: choiceFlag(['asc', 'desc'] as const, args.order ?? 'desc', '--order'),
    types: (args.type ?? []).map((value) => choiceFlag(WARRANT_TYPES, value, '--type')),
    issuers,
    expiry: (args.expiry ?? []).map((value) => choiceFlag(WARRANT_EXPIRY_BANDS, value, '--expiry')),
    bounds: (args.bounds ?? []).map((value) => choiceFlag(WARRANT_BOUNDS, value, '--bounds')),
    statuses: (args.status ?? []).map((value) => choiceFlag(WARRANT_STATUSES, value, '--status')),
    language: choiceFlag(Object.keys(WARRANT_LANGUAGES) as (keyof typeof WARRANT_LANGUAGES)[], args.lang ?? 'en', '--lang'),
    ...(offset === undefined ? {} : { offset }),
    ...(args.count === undefined ? {} : { count: countFlag(args.count, '--count')! }),
  };
}

export const warrantsCommand: CommandModule<object, WarrantsArgs> = {
  command: 'warrants <symbol>',
  describe: 'Screen the warrants on an HK security: filter by type, issuer, expiry, bounds and status, sort by any figure',
  builder: (yargs) =>
    yargs
      .positional('symbol', { type: 'string', demandOption: true, describe: 'The underlying, e.g. 700.HK' })
      .option('sort-by', { type: 'string', default: 'volume', describe: `Sort key: ${WARRANT_SORT_KEYS.join(', ')}` })
      .option('order', { type: 'string', default: 'desc', describe: 'asc or desc' })
      .option('type', { type: 'string', array: true, describe: `Only these types (repeatable): ${WARRANT_TYPES.join(', ')}` })
      .option('issuer', { type: 'number', array: true, describe: 'Only these issuer ids (repeatable; `trader warrant-issuers`)' })
      .option('expiry', {
        type: 'string',
        array: true,
        describe: `Only these months to expiry (repeatable): ${WARRANT_EXPIRY_BANDS.join(', ')}`,
      })
      .option('bounds', {
        type: 'string',
        array: true,
        describe: `Inline warrants with the price in or out of bounds: ${WARRANT_BOUNDS.join(', ')}`,
      })
      .option('status', { type: 'string', array: true, describe: `Only these statuses (repeatable): ${WARRANT_STATUSES.join(', ')}` })
      .option('lang', { type: 'string', default: 'en', describe: `Language of the names: ${Object.keys(WARRANT_LANGUAGES).join(', ')}` })
      .option('offset', { type: 'number', describe: 'Skip this many rows (with --count)' })
      .option('count', { type: 'number', describe: 'At most this many rows' })
      .example('$0 warrants 700.HK', 'Every warrant on Tencent, most traded first')
      .example('$0 warrants 700.HK --type Bull --type Bear --sort-by toCallPrice --order asc', 'CBBCs nearest their call price first')
      .example('$0 warrants 700.HK --type Call --expiry lt3 --issuer 1 --json', 'Calls of one issuer expiring within 3 months, as JSON'),
  handler: async (args) => {
    const symbol = symbolFlag(String(args.symbol), 'SYMBOL');
    const query = warrantQuery(args);
    const list = await withQuoteClient(args, (client) => client.warrantList(symbol, query));
    present(args, list, () => {
      if (list.warrants.length === 0) return line(`no warrants on ${symbol} match`);
      printTable(
        [
          'SYMBOL',
          'NAME',
          'TYPE',
          'LAST',
          'CHANGE %',
          'VOLUME',
          'STRIKE',
          'UPPER',
          'LOWER',
          'CALL PRICE',
          'PREMIUM %',
          'LEVERAGE',
          'EXPIRY',
          'STATUS',
        ],
        list.warrants.map((row) => [
          row.symbol,
          row.name,
          row.warrantType,
          decimal(row.lastDone),
          decimal(row.changeRate),
          row.volume,
          decimal(row.strikePrice),
          decimal(row.upperStrikePrice),
          decimal(row.lowerStrikePrice),
          decimal(row.callPrice),
          decimal(row.premium),
          decimal(row.leverageRatio),
          row.expiryDate,
          row.status,
        ]),
      );
      line(`${list.warrants.length} of ${list.totalCount}`);
    });
  },
};
