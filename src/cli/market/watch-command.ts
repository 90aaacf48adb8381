// `trader watch`: streams quote (and optionally depth, broker-queue, trade and live-candlestick) pushes as one JSON
// object per line until Ctrl-C; connection changes go to stderr so stdout stays parseable.
import { merge, map, type Observable } from 'rxjs';
import type { CommandModule } from 'yargs';
import { PERIODS, type Period } from '../../domain/period.js';
import type { SecuritySymbol } from '../../domain/symbol.js';
import type { ConnectionState } from '../../openapi/socket/connection-state.js';
import { ConnectionLostError } from '../../openapi/socket/errors.js';
import type { QuoteClient } from '../../openapi/socket/quote-client.js';
import { periodFlag, symbolFlag } from '../trading/flags.js';
import type { GlobalFlags } from '../trading/session.js';
import { writeJsonLine } from './format.js';
import { untilInterrupted, withQuoteClient } from './socket-session.js';

interface WatchArgs extends GlobalFlags {
  readonly symbols: readonly string[];
  readonly depth?: boolean;
  readonly brokers?: boolean;
  readonly trades?: boolean;
  readonly candles?: readonly string[];
  readonly allSessions?: boolean;
  readonly subscriptions?: boolean;
}

export interface WatchSelection {
  readonly symbols: readonly SecuritySymbol[];
  readonly depth: boolean;
  readonly trades: boolean;
  readonly brokers?: boolean;
  /** Live candlesticks of these periods, built from the pushes. */
  readonly candles?: readonly Period[];
  readonly allSessions?: boolean;
}

/**
 * Every push of the selection tagged with its kind: {"type":"quote",…}, {"type":"depth",…}, {"type":"brokers",…},
 * {"type":"trades",…}, {"type":"candlestick","period":…,"confirmed":…,…}.
 */
export function watchStream(client: QuoteClient, selection: WatchSelection): Observable<Record<string, unknown>> {
  const streams: Observable<Record<string, unknown>>[] = [
    client.quotes(selection.symbols).pipe(map((quote) => ({ type: 'quote', ...quote }))),
  ];
  if (selection.depth) streams.push(client.depth(selection.symbols).pipe(map((depth) => ({ type: 'depth', ...depth }))));
  if (selection.brokers) streams.push(client.brokers(selection.symbols).pipe(map((brokers) => ({ type: 'brokers', ...brokers }))));
  if (selection.trades) streams.push(client.trades(selection.symbols).pipe(map((trades) => ({ type: 'trades', ...trades }))));
  for (const period of selection.candles ?? []) {
    for (const symbol of selection.symbols) {
      streams.push(
        client
          .liveCandlesticks(symbol, period, { allSessions: selection.allSessions === true })
          .pipe(map((update) => ({ type: 'candlestick', confirmed: update.confirmed, ...update.candle }))),
      );
    }
  }
  return merge(...streams);
}

export function describeState(state: ConnectionState): string {
  switch (state.status) {
    case 'online':
      return state.reconnected ? 'reconnected; subscriptions restored' : 'connected';
    case 'reconnecting':
      return `connection lost (${state.reason}); reconnecting in ${Math.round(state.retryInMs / 1000)} s (attempt ${state.attempt})`;
    case 'closed':
      return `connection closed: ${state.reason}`;
    case 'connecting':
      return 'connecting';
  }
}

export const watchCommand: CommandModule<object, WatchArgs> = {
  command: 'watch <symbols..>',
  describe: 'Stream live quotes (and depth, trades) as JSON lines until Ctrl-C',
  builder: (yargs) =>
    yargs
      .positional('symbols', { type: 'string', array: true, demandOption: true, describe: 'Symbols such as 700.HK AAPL.US (at most 500)' })
      .option('depth', { type: 'boolean', describe: 'Also stream order-book depth' })
      .option('brokers', { type: 'boolean', describe: 'Also stream broker queues (HK securities)' })
      .option('trades', { type: 'boolean', describe: 'Also stream individual trades' })
      .option('candles', {
        type: 'string',
        array: true,
        describe: `Also stream live candlesticks of these periods (repeatable): ${PERIODS.join(', ')}`,
      })
      .option('all-sessions', { type: 'boolean', describe: 'Live candlesticks include pre-market, post-market and overnight trades' })
      .option('subscriptions', { type: 'boolean', describe: 'Print the subscriptions the service holds once they are in place' })
      .example('$0 watch 700.HK AAPL.US', 'One JSON object per quote push')
      .example('$0 watch 700.HK --depth --trades | jq -c \'select(.type == "depth")\'', 'Depth pushes only, through jq')
      .example('$0 watch 700.HK --candles 1m --candles day', 'Live 1-minute and daily candles; a bar is confirmed when the next starts')
      .example('$0 watch 700.HK --brokers --subscriptions', 'Broker queues, after a line listing the subscriptions'),
  handler: async (args) => {
    const selection: WatchSelection = {
      symbols: args.symbols.map((text) => symbolFlag(String(text), 'SYMBOL')),
      depth: args.depth === true,
      brokers: args.brokers === true,
      trades: args.trades === true,
      candles: [...new Set((args.candles ?? []).map((text) => periodFlag(String(text), '--candles')))],
      allSessions: args.allSessions === true,
    };
    await withQuoteClient(args, async (client) => {
      let failure: unknown;
      const stopped = new AbortController();
      const states = client.state$.subscribe((state) => {
        process.stderr.write(`watch: ${describeState(state)}\n`);
        if (state.status === 'closed') failure ??= new ConnectionLostError(state.reason);
      });
      const pushes = watchStream(client, selection).subscribe({
        next: (value) => writeJsonLine(value),
        error: (error: unknown) => {
          failure = error;
          stopped.abort();
        },
        complete: () => stopped.abort(),
      });
      if (args.subscriptions) {
        for (const period of selection.candles ?? [])
          for (const symbol of selection.symbols) await client.subscribeCandlesticks(symbol, period, selection);
        await client.whenSubscribed();
        writeJsonLine({ type: 'subscriptions', subscriptions: await client.subscriptions() });
      }
      await untilInterrupted(stopped.signal);
      pushes.unsubscribe();
      states.unsubscribe();
      if (failure !== undefined) throw failure;
    });
  },
};
