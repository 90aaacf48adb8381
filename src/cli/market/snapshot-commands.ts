// `trader quote`, `trader static`, `trader capital-flow`, `trader capital-distribution`, `trader trading-days`:
// one request each over the quote connection, printed as a table or as JSON.
import type { CommandModule } from 'yargs';
import { InvalidInputError } from '../../domain/errors.js';
import { timeZoneOf } from '../../domain/market-hours.js';
import { MARKETS, marketOf } from '../../domain/symbol.js';
import { printTable } from '../output.js';
import { choiceFlag, dateFlag, symbolFlag } from '../trading/flags.js';
import { decimal, line, present } from '../trading/present.js';
import type { GlobalFlags } from '../trading/session.js';
import { marketTime } from './format.js';
import { withQuoteClient } from './socket-session.js';

interface SymbolsArgs extends GlobalFlags {
  readonly symbols: readonly string[];
}

interface SymbolArgs extends GlobalFlags {
  readonly symbol: string;
}

const symbolsOf = (args: SymbolsArgs) => args.symbols.map((text) => symbolFlag(String(text), 'SYMBOL'));

/** Says on stderr which asked-for symbols the service answered nothing for (the table or JSON has only the others). */
function noteUnanswered(asked: readonly string[], answered: readonly { readonly symbol: string }[], what: string): void {
  const got = new Set(answered.map((one) => one.symbol));
  const missing = [...new Set(asked)].filter((symbol) => !got.has(symbol));
  if (missing.length > 0)
    process.stderr.write(`note: no ${what} for ${missing.join(', ')}: the service answered none (a symbol it does not know?)\n`);
}

export const quoteCommand: CommandModule<object, SymbolsArgs> = {
  command: 'quote <symbols..>',
  describe: 'Show the latest quote of one or more securities',
  builder: (yargs) =>
    yargs
      .positional('symbols', { type: 'string', array: true, demandOption: true, describe: 'Symbols such as 700.HK AAPL.US' })
      .example('$0 quote 700.HK AAPL.US', 'Last price, day range and volume of two securities')
      .example('$0 quote 700.HK --json', 'The snapshot as JSON, with pre/post-market quotes when there are any'),
  handler: async (args) => {
    const symbols = symbolsOf(args);
    const quotes = await withQuoteClient(args, (client) => client.quote(symbols));
    noteUnanswered(symbols, quotes, 'quote');
    present(args, quotes, () =>
      printTable(
        ['SYMBOL', 'LAST', 'PREV CLOSE', 'OPEN', 'HIGH', 'LOW', 'VOLUME', 'TURNOVER', 'TIME'],
        quotes.map((quote) => [
          quote.symbol,
          decimal(quote.lastDone),
          decimal(quote.prevClose),
          decimal(quote.open),
          decimal(quote.high),
          decimal(quote.low),
          quote.volume,
          decimal(quote.turnover),
          marketTime(quote.timestamp, timeZoneOf(marketOf(quote.symbol))),
        ]),
      ),
    );
  },
};

export const staticCommand: CommandModule<object, SymbolsArgs> = {
  command: 'static <symbols..>',
  describe: 'Show static reference data: names, exchange, lot size, shares, EPS, board',
  builder: (yargs) =>
    yargs
      .positional('symbols', { type: 'string', array: true, demandOption: true, describe: 'Symbols such as 700.HK AAPL.US' })
      .example('$0 static 700.HK', 'Name, lot size and board of Tencent')
      .example('$0 static 700.HK AAPL.US --json', 'Every field as JSON'),
  handler: async (args) => {
    const symbols = symbolsOf(args);
    const infos = await withQuoteClient(args, (client) => client.staticInfo(symbols));
    noteUnanswered(symbols, infos, 'static info');
    present(args, infos, () =>
      printTable(
        [
          'SYMBOL',
          'NAME',
          'EXCHANGE',
          'CURRENCY',
          'LOT',
          'BOARD',
          'TOTAL SHARES',
          'CIRCULATING',
          'EPS (TTM)',
          'BPS',
          'DIV YIELD',
          'LISTED',
        ],
        infos.map((info) => [
          info.symbol,
          info.nameEn || info.nameHk || info.nameCn,
          info.exchange,
          info.currency,
          info.lotSize,
          info.board,
          info.totalShares,
          info.circulatingShares,
          decimal(info.epsTtm),
          decimal(info.bps),
          decimal(info.dividendYield),
          info.listingDate,
        ]),
      ),
    );
  },
};

export const capitalFlowCommand: CommandModule<object, SymbolArgs> = {
  command: 'capital-flow <symbol>',
  describe: "Show today's intraday capital flow (net inflow per minute) of a security",
  builder: (yargs) =>
    yargs
      .positional('symbol', { type: 'string', demandOption: true, describe: 'A symbol such as 700.HK' })
      .example('$0 capital-flow 700.HK', 'Net inflow line of the day')
      .example('$0 capital-flow 700.HK --json', 'The same as JSON'),
  handler: async (args) => {
    const symbol = symbolFlag(String(args.symbol), 'SYMBOL');
    const flow = await withQuoteClient(args, (client) => client.capitalFlow(symbol));
    const zone = timeZoneOf(marketOf(symbol));
    present(args, flow, () => {
      if (flow.lines.length === 0) return line(`no capital flow for ${symbol} yet today`);
      printTable(
        ['TIME', 'INFLOW'],
        flow.lines.map((entry) => [marketTime(entry.timestamp, zone), decimal(entry.inflow)]),
      );
    });
  },
};

export const capitalDistributionCommand: CommandModule<object, SymbolArgs> = {
  command: 'capital-distribution <symbol>',
  describe: 'Show capital in and out of a security by order size (large, medium, small)',
  builder: (yargs) =>
    yargs
      .positional('symbol', { type: 'string', demandOption: true, describe: 'A symbol such as 700.HK' })
      .example('$0 capital-distribution 700.HK', 'In, out and net by order size')
      .example('$0 capital-distribution 700.HK --json', 'The same as JSON'),
  handler: async (args) => {
    const symbol = symbolFlag(String(args.symbol), 'SYMBOL');
    const distribution = await withQuoteClient(args, (client) => client.capitalDistribution(symbol));
    present(args, distribution, () => {
      line(`${distribution.symbol} at ${marketTime(distribution.timestamp, timeZoneOf(marketOf(symbol)))}`);
      printTable(
        ['SIZE', 'IN', 'OUT', 'NET'],
        (['large', 'medium', 'small'] as const).map((size) => [
          size,
          decimal(distribution.capitalIn[size]),
          decimal(distribution.capitalOut[size]),
          decimal(distribution.capitalIn[size].sub(distribution.capitalOut[size])),
        ]),
      );
    });
  },
};

interface TradingDaysArgs extends GlobalFlags {
  readonly market: string;
  readonly from: string;
  readonly to: string;
}

export const tradingDaysCommand: CommandModule<object, TradingDaysArgs> = {
  command: 'trading-days',
  describe: 'List the trading days (and half days) of a market between two dates',
  builder: (yargs) =>
    yargs
      .option('market', { type: 'string', demandOption: true, describe: `Market: ${MARKETS.join(', ')}` })
      .option('from', { type: 'string', demandOption: true, describe: 'First date, YYYY-MM-DD' })
      .option('to', { type: 'string', demandOption: true, describe: 'Last date, YYYY-MM-DD (the service allows about a month per call)' })
      .example('$0 trading-days --market HK --from 2024-01-01 --to 2024-01-31', 'Trading days of January in Hong Kong')
      .example('$0 trading-days --market US --from 2024-12-01 --to 2024-12-31 --json', 'As JSON, half days listed apart'),
  handler: async (args) => {
    const market = choiceFlag(MARKETS, args.market, '--market');
    const from = dateFlag(args.from, '--from');
    const to = dateFlag(args.to, '--to');
    if (from > to) throw new InvalidInputError(`--from ${from} is after --to ${to}`, '--from');
    const days = await withQuoteClient(args, (client) => client.tradingDays(market, from, to));
    present(args, days, () => {
      const half = new Set(days.halfTradingDays);
      const all = [...new Set([...days.tradingDays, ...days.halfTradingDays])].sort();
      if (all.length === 0) return line(`no trading days in ${market} from ${from} to ${to}`);
      printTable(
        ['DATE', 'SESSION'],
        all.map((day) => [day, half.has(day) ? 'half day' : 'full day']),
      );
    });
  },
};
