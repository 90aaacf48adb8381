// `trader depth`, `trader brokers`, `trader participants`, `trader trades`, `trader intraday`,
// `trader trading-sessions`: the order book, broker queues, recent trades and minute lines of a security, and
// the markets' sessions, one quote-connection request each.
import type { CommandModule } from 'yargs';
import { InvalidInputError } from '../../domain/errors.js';
import { timeZoneOf } from '../../domain/market-hours.js';
import { marketOf } from '../../domain/symbol.js';
import { printTable } from '../output.js';
import { countFlag, symbolFlag } from '../trading/flags.js';
import { decimal, line, present } from '../trading/present.js';
import type { GlobalFlags } from '../trading/session.js';
import { marketTime } from './format.js';
import { withQuoteClient } from './socket-session.js';

interface SymbolArgs extends GlobalFlags {
  readonly symbol: string;
}

const symbolOf = (args: SymbolArgs) => symbolFlag(String(args.symbol), 'SYMBOL');
const DIRECTIONS = ['neutral', 'down', 'up'];

export const depthCommand: CommandModule<object, SymbolArgs> = {
  command: 'depth <symbol>',
  describe: 'Show the order book: price, volume and order count at each ask and bid level',
  builder: (yargs) =>
    yargs
      .positional('symbol', { type: 'string', demandOption: true, describe: 'A symbol such as 700.HK' })
      .example('$0 depth 700.HK', 'Five levels a side')
      .example('$0 depth AAPL.US --json', 'As JSON'),
  handler: async (args) => {
    const symbol = symbolOf(args);
    const depth = await withQuoteClient(args, (client) => client.depthSnapshot(symbol));
    present(args, depth, () => {
      const rows = Math.max(depth.asks.length, depth.bids.length);
      if (rows === 0) return line(`no order book for ${symbol}`);
      printTable(
        ['LEVEL', 'BID', 'BID VOLUME', 'BID ORDERS', 'ASK', 'ASK VOLUME', 'ASK ORDERS'],
        Array.from({ length: rows }, (_, index) => {
          const bid = depth.bids[index];
          const ask = depth.asks[index];
          return [index + 1, decimal(bid?.price), bid?.volume, bid?.orderCount, decimal(ask?.price), ask?.volume, ask?.orderCount];
        }),
      );
    });
  },
};

export const brokersCommand: CommandModule<object, SymbolArgs> = {
  command: 'brokers <symbol>',
  describe: 'Show the broker queue at each ask and bid level (HK securities); `trader participants` names the ids',
  builder: (yargs) =>
    yargs
      .positional('symbol', { type: 'string', demandOption: true, describe: 'An HK symbol such as 700.HK' })
      .example('$0 brokers 700.HK', 'Broker ids queued at each level')
      .example('$0 brokers 700.HK --json', 'As JSON'),
  handler: async (args) => {
    const symbol = symbolOf(args);
    const brokers = await withQuoteClient(args, (client) => client.brokersSnapshot(symbol));
    present(args, brokers, () => {
      const rows = Math.max(brokers.askBrokers.length, brokers.bidBrokers.length);
      if (rows === 0) return line(`no broker queue for ${symbol} (the service has them for HK securities)`);
      printTable(
        ['LEVEL', 'BID BROKERS', 'ASK BROKERS'],
        Array.from({ length: rows }, (_, index) => [
          index + 1,
          brokers.bidBrokers[index]?.brokerIds.join(' ') ?? '',
          brokers.askBrokers[index]?.brokerIds.join(' ') ?? '',
        ]),
      );
    });
  },
};

export const participantsCommand: CommandModule<object, GlobalFlags> = {
  command: 'participants',
  describe: 'List the exchange participants and their broker ids (the names behind `trader brokers`)',
  builder: (yargs) => yargs.example('$0 participants', 'Every participant').example('$0 participants --json', 'As JSON'),
  handler: async (args) => {
    const participants = await withQuoteClient(args, (client) => client.participants());
    present(args, participants, () =>
      participants.length === 0
        ? line('no participants')
        : printTable(
            ['BROKER IDS', 'NAME'],
            participants.map((row) => [row.brokerIds.join(' '), row.nameEn || row.nameHk || row.nameCn]),
          ),
    );
  },
};

interface TradesArgs extends SymbolArgs {
  readonly count: number;
}

export const tradesCommand: CommandModule<object, TradesArgs> = {
  command: 'trades <symbol>',
  describe: 'Show the latest trades of a security',
  builder: (yargs) =>
    yargs
      .positional('symbol', { type: 'string', demandOption: true, describe: 'A symbol such as 700.HK' })
      .option('count', { type: 'number', default: 20, describe: 'How many (at most 1000)' })
      .example('$0 trades 700.HK', 'The last 20 trades')
      .example('$0 trades AAPL.US --count 500 --json', 'The last 500 as JSON'),
  handler: async (args) => {
    const symbol = symbolOf(args);
    const count = countFlag(args.count, '--count')!;
    if (count > 1000) throw new InvalidInputError(`--count: at most 1000 (got ${count})`, '--count');
    const trades = await withQuoteClient(args, (client) => client.recentTrades(symbol, count));
    const zone = timeZoneOf(marketOf(symbol));
    present(args, trades, () =>
      trades.length === 0
        ? line(`no trades of ${symbol} yet`)
        : printTable(
            ['TIME', 'PRICE', 'VOLUME', 'DIRECTION', 'TYPE', 'SESSION'],
            trades.map((trade) => [
              marketTime(trade.timestamp, zone),
              decimal(trade.price),
              trade.volume,
              DIRECTIONS[trade.direction] ?? trade.direction,
              trade.tradeType,
              trade.tradeSession,
            ]),
          ),
    );
  },
};

interface IntradayArgs extends SymbolArgs {
  readonly allSessions?: boolean;
}

export const intradayCommand: CommandModule<object, IntradayArgs> = {
  command: 'intraday <symbol>',
  describe: "Show today's minute lines: price, volume, turnover and average price of each minute so far",
  builder: (yargs) =>
    yargs
      .positional('symbol', { type: 'string', demandOption: true, describe: 'A symbol such as 700.HK' })
      .option('all-sessions', { type: 'boolean', describe: 'Include pre-market, post-market and overnight minutes' })
      .example('$0 intraday 700.HK', 'The minutes of the day')
      .example('$0 intraday AAPL.US --all-sessions --json', 'Every session, as JSON'),
  handler: async (args) => {
    const symbol = symbolOf(args);
    const lines = await withQuoteClient(args, (client) => client.intraday(symbol, { allSessions: args.allSessions === true }));
    const zone = timeZoneOf(marketOf(symbol));
    present(args, lines, () =>
      lines.length === 0
        ? line(`no minutes of ${symbol} yet today`)
        : printTable(
            ['TIME', 'PRICE', 'VOLUME', 'TURNOVER', 'AVG PRICE'],
            lines.map((entry) => [
              marketTime(entry.timestamp, zone),
              decimal(entry.price),
              entry.volume,
              decimal(entry.turnover),
              decimal(entry.avgPrice),
            ]),
          ),
    );
  },
};

const hhmm = (value: number): string => `${String(Math.floor(value / 100)).padStart(2, '0')}:${String(value % 100).padStart(2, '0')}`;

export const tradingSessionsCommand: CommandModule<object, GlobalFlags> = {
  command: 'trading-sessions',
  describe: "List each market's trading sessions (local times)",
  builder: (yargs) => yargs.example('$0 trading-sessions', 'Sessions of every market').example('$0 trading-sessions --json', 'As JSON'),
  handler: async (args) => {
    const markets = await withQuoteClient(args, (client) => client.tradingSessions());
    present(args, markets, () =>
      printTable(
        ['MARKET', 'SESSION', 'BEGIN', 'END'],
        markets.flatMap((market) =>
          market.sessions.map((session) => [market.market, session.session, hhmm(session.begin), hhmm(session.end)]),
        ),
      ),
    );
  },
};
