// `trader realtime`: subscribes, lets pushes build the local state (as the SDK's realtime cache does) until
// --pushes arrived or --wait seconds passed, then prints that state per symbol: the merged quote, depth,
// broker queue, the latest trades and live candlesticks.
import type { Subscription } from 'rxjs';
import type { CommandModule } from 'yargs';
import { systemClock } from '../../clock/system-clock.js';
import { timeZoneOf } from '../../domain/market-hours.js';
import { PERIODS, type Period } from '../../domain/period.js';
import { marketOf } from '../../domain/symbol.js';
import type { QuoteClient } from '../../openapi/socket/quote-client.js';
import { printTable } from '../output.js';
import { countFlag, periodFlag, secondsFlag, symbolFlag } from '../trading/flags.js';
import { decimal, line, present } from '../trading/present.js';
import type { GlobalFlags } from '../trading/session.js';
import { marketTime } from './format.js';
import { untilInterrupted, withQuoteClient } from './socket-session.js';

interface RealtimeArgs extends GlobalFlags {
  readonly symbols: readonly string[];
  readonly depth?: boolean;
  readonly brokers?: boolean;
  readonly trades?: boolean;
  readonly candles?: readonly string[];
  readonly count?: number;
  readonly pushes?: number;
  readonly wait?: number;
}

const DEFAULT_WAIT_SECONDS = 5;

/** The state of each symbol as the realtime getters answer it. */
function stateOf(
  client: QuoteClient,
  args: { symbols: readonly ReturnType<typeof symbolFlag>[]; candles: readonly Period[]; count: number },
) {
  return args.symbols.map((symbol) => ({
    symbol,
    quote: client.realtimeQuote([symbol])[0],
    ...client.realtimeDepth(symbol),
    ...client.realtimeBrokers(symbol),
    trades: client.realtimeTrades(symbol, args.count),
    candlesticks: Object.fromEntries(args.candles.map((period) => [period, client.realtimeCandlesticks(symbol, period, args.count)])),
  }));
}

export const realtimeCommand: CommandModule<object, RealtimeArgs> = {
  command: 'realtime <symbols..>',
  describe: 'Subscribe, let the pushes build the local realtime state, then print it (quote, depth, brokers, trades, candles)',
  builder: (yargs) =>
    yargs
      .positional('symbols', { type: 'string', array: true, demandOption: true, describe: 'Symbols such as 700.HK AAPL.US' })
      .option('depth', { type: 'boolean', describe: 'Also subscribe depth' })
      .option('brokers', { type: 'boolean', describe: 'Also subscribe broker queues (HK securities)' })
      .option('trades', { type: 'boolean', describe: 'Also subscribe trades' })
      .option('candles', { type: 'string', array: true, describe: `Also keep live candlesticks of these periods: ${PERIODS.join(', ')}` })
      .option('count', { type: 'number', default: 10, describe: 'Trades and candles to print per symbol' })
      .option('pushes', { type: 'number', describe: 'Print as soon as this many pushes arrived' })
      .option('wait', { type: 'number', default: DEFAULT_WAIT_SECONDS, describe: 'Print after at most this many seconds (or on Ctrl-C)' })
      .example('$0 realtime 700.HK --depth --brokers --pushes 3', 'The state after the first pushes')
      .example('$0 realtime 700.HK AAPL.US --trades --candles 1m --wait 60 --json', 'A minute of pushes, then the state as JSON'),
  handler: async (args) => {
    const symbols = args.symbols.map((text) => symbolFlag(String(text), 'SYMBOL'));
    const candles = [...new Set((args.candles ?? []).map((text) => periodFlag(String(text), '--candles')))];
    const count = countFlag(args.count ?? 10, '--count')!;
    const pushes = args.pushes === undefined ? undefined : countFlag(args.pushes, '--pushes')!;
    const wait = secondsFlag(args.wait ?? DEFAULT_WAIT_SECONDS, '--wait');
    const state = await withQuoteClient(args, async (client) => {
      const stop = new AbortController();
      let seen = 0;
      const counted = (): void => {
        seen += 1;
        if (pushes !== undefined && seen >= pushes) stop.abort();
      };
      const streams: Subscription[] = [client.quotes(symbols).subscribe(counted)];
      if (args.depth) streams.push(client.depth(symbols).subscribe(counted));
      if (args.brokers) streams.push(client.brokers(symbols).subscribe(counted));
      if (args.trades) streams.push(client.trades(symbols).subscribe(counted));
      const timer = systemClock.setTimeout(() => stop.abort(), wait * 1000);
      try {
        for (const symbol of symbols) for (const period of candles) await client.subscribeCandlesticks(symbol, period);
        await untilInterrupted(stop.signal);
        return stateOf(client, { symbols, candles, count });
      } finally {
        timer.cancel();
        for (const stream of streams) stream.unsubscribe();
      }
    });
    present(args, state, () => {
      for (const entry of state) {
        const zone = timeZoneOf(marketOf(entry.symbol));
        line(`${entry.symbol}`);
        const quote = entry.quote;
        if (quote === undefined) line('  no quote pushed yet');
        else
          printTable(
            ['LAST', 'OPEN', 'HIGH', 'LOW', 'VOLUME', 'TURNOVER', 'TIME'],
            [
              [
                decimal(quote.lastDone),
                decimal(quote.open),
                decimal(quote.high),
                decimal(quote.low),
                quote.volume,
                decimal(quote.turnover),
                marketTime(quote.timestamp, zone),
              ],
            ],
          );
        if (entry.asks.length + entry.bids.length > 0)
          printTable(
            ['LEVEL', 'BID', 'BID VOLUME', 'ASK', 'ASK VOLUME'],
            Array.from({ length: Math.max(entry.asks.length, entry.bids.length) }, (_, index) => [
              index + 1,
              decimal(entry.bids[index]?.price),
              entry.bids[index]?.volume,
              decimal(entry.asks[index]?.price),
              entry.asks[index]?.volume,
            ]),
          );
        if (entry.askBrokers.length + entry.bidBrokers.length > 0)
          printTable(
            ['LEVEL', 'BID BROKERS', 'ASK BROKERS'],
            Array.from({ length: Math.max(entry.askBrokers.length, entry.bidBrokers.length) }, (_, index) => [
              index + 1,
              entry.bidBrokers[index]?.brokerIds.join(' ') ?? '',
              entry.askBrokers[index]?.brokerIds.join(' ') ?? '',
            ]),
          );
        if (entry.trades.length > 0)
          printTable(
            ['TRADE TIME', 'PRICE', 'VOLUME'],
            entry.trades.map((trade) => [marketTime(trade.timestamp, zone), decimal(trade.price), trade.volume]),
          );
        for (const [period, bars] of Object.entries(entry.candlesticks))
          printTable(
            [`${period} BAR`, 'OPEN', 'HIGH', 'LOW', 'CLOSE', 'VOLUME'],
            bars.map((bar) => [marketTime(bar.time, zone), bar.open, bar.high, bar.low, bar.close, bar.volume]),
          );
        line('');
      }
    });
  },
};
