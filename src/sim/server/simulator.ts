// The simulated broker as one object: candles → market replay → venue (matching, accounts) and market
// state → HTTP API and quote/trade WebSockets on one loopback port, optionally kept in a SQLite file.
// Start it in-process with startSimulator (tests, `trader run` in paper mode) or from `trader sim`.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemClock } from '../../clock/system-clock.js';
import type { Clock } from '../../domain/clock.js';
import { listenError } from '../../domain/errors.js';
import { currencyOf, marketOf, type SecuritySymbol } from '../../domain/symbol.js';
import { silentLogger } from '../../log/logger.js';
import type { Credentials } from '../../openapi/http/signer.js';
import { MarketReplay, parseVenueSettings, Venue, type ReplayTick } from '../venue/index.js';
import { DEFAULT_TOKEN_LIFETIME_MS, resolveCredentials, TokenRegistry } from './credentials.js';
import { accountRoutes } from './http/account-routes.js';
import { cashFlowRoutes } from './http/cash-flow-routes.js';
import { contentRoutes } from './http/content-routes.js';
import { createHttpHandler } from './http/http-handler.js';
import { orderRoutes } from './http/order-routes.js';
import { RequestAuthenticator } from './http/request-auth.js';
import { Router } from './http/router.js';
import { statementRoutes } from './http/statement-routes.js';
import { temperatureRoutes } from './http/temperature-routes.js';
import { tokenRoutes } from './http/token-routes.js';
import { watchlistRoutes } from './http/watchlist-routes.js';
import { CandleStore } from './market/candle-store.js';
import { MarketClock } from './market/market-clock.js';
import { loadMarketData, type SymbolSeries } from './market/market-data.js';
import { readSecurities, securitiesFileOf } from '../../feeds/history/securities-file.js';
import { loadCorporateActions } from '../../feeds/history/corporate-actions-file.js';
import type { CorporateAction } from '../../domain/corporate-action.js';
import { QuoteBoard } from './market/quote-board.js';
import { CalcIndexes } from './market/calc-indexes.js';
import { OptionChains } from './market/option-chain.js';
import { TradingCalendar } from './market/trading-calendar.js';
import { Underlyings } from './market/underlyings.js';
import { Warrants } from './market/warrants.js';
import {
  checkOptions,
  DEFAULT_CASH,
  DEFAULT_DATA,
  DEFAULT_PING_INTERVAL_MS,
  DEFAULT_SPEED,
  endpointsOf,
  envOf,
  type Endpoints,
  type SimulatorEnv,
  type SimulatorOptions,
} from './options.js';
import { DEFAULT_HTTP_LIMIT, RateWindows } from './rate-windows.js';
import { DEFAULT_QUOTE_LIMITS, quoteService, tradeService } from './socket/link-services.js';
import { quoteQueries } from './socket/quote-queries.js';
import { QuoteSubscriptions } from './socket/quote-subscriptions.js';
import { referenceQueries } from './socket/reference-queries.js';
import { DEFAULT_SESSION_SETTINGS, SocketSessions } from './socket/sessions.js';
import { SocketServer, type ConnectionInfo } from './socket/socket-server.js';
import { StateStore } from './state-store.js';
import { Lockstep, type Settled } from './lockstep.js';
import type { CarryNotice } from '../venue/carry-notice.js';

export interface Simulator extends Endpoints {
  readonly port: number;
  /** The six LONGPORT_* variables a client (ours or the official SDK) needs. */
  readonly env: SimulatorEnv;
  readonly credentials: Credentials;
  readonly symbols: readonly SecuritySymbol[];
  /** The venue behind the protocol (read-only use: its books are the simulator's truth). */
  readonly venue: Venue;
  /** The market replay; with `replay: 'manual'`, `replay.step()` delivers the next tick. */
  readonly replay: MarketReplay;
  /** The replay's market time; a runtime sharing the simulator reads its time and timers from here. */
  readonly marketClock: MarketClock;
  /**
   * Keeps the replay in step with an in-process client (a paper run's runtime) until the returned function is
   * called: at each bar's end the replay fires the market-clock timers due and waits for `settled()` before
   * the next bar's first tick (see lockstep.ts).
   */
  lockstep(settled: Settled): () => void;
  /**
   * Calls `listener` with each dividend, split and borrow fee the venue books, as it books it (the protocol
   * pushes none: an in-process runtime's book follows them at once); returns the unsubscribe function.
   */
  onCarry(listener: (notice: CarryNotice) => void): () => void;
  /** The long connections open now: kind, authentication, quote subscriptions, trade topics. */
  connections(): ConnectionInfo[];
  /** Stops the replay, sends Close (server shutdown) on every connection, saves the state and stops listening. */
  close(): Promise<void>;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  checkOptions(options);
  const clock: Clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger;
  const speed = options.speed ?? DEFAULT_SPEED;
  const seed = options.seed ?? 1;
  const series = await loadMarketData({ ...options, logger });
  // Lot sizes, ticks and names of the securities files beside the data (see `trader data fetch`); the
  // venue settings' own instruments win.
  const instruments = {};
  for (const path of [options.data ?? []].flat()) Object.assign(instruments, await readSecurities(await securitiesFileOf(path)));
  const actions = await actionsOf(options, series);
  // Stopped while the data was read (its candles made after the last piece): nothing is opened.
  options.signal?.throwIfAborted();
  const store = options.stateFile === undefined ? undefined : StateStore.open(options.stateFile);
  const saved = store?.load();

  const credentials = resolveCredentials(options.credentials, saved?.credentials);
  const tokens = new TokenRegistry(clock);
  for (const token of saved?.tokens ?? []) tokens.add(token);
  if (tokens.state(credentials.accessToken) === 'unknown') {
    tokens.add({
      token: credentials.accessToken,
      issuedAt: clock.now(),
      expiresAt: clock.now() + (options.tokenLifetimeMs ?? DEFAULT_TOKEN_LIFETIME_MS),
    });
  }

  const replay = new MarketReplay({
    series: series.map((one) => one.candles.slice(one.replayFrom)),
    clock,
    speed,
    // Ticks take a bar's extremes in the order the venue's matching does, so orders fill as on the bar.
    path: parseVenueSettings(options.venue).intrabarPath,
  });
  const board = new QuoteBoard(previousCloses(series));
  const candles = new CandleStore(series);
  const resumedAt =
    saved?.marketTime === undefined
      ? undefined
      : fastForward(replay, saved.marketTime, (tick) => (candles.onTick(tick), board.apply(tick)));
  // Before the first tick the market stands at its first tick; with nothing to replay, at the end of the data.
  const dataEnd = Math.max(...series.map((one) => one.candles.at(-1)!.time));
  const marketClock = new MarketClock(clock, speed, resumedAt ?? replay.nextTickTime ?? dataEnd);
  const carryListeners = new Set<(notice: CarryNotice) => void>();
  const venue = new Venue({
    clock: marketClock,
    actions,
    onCarry: (notice) => {
      for (const listener of carryListeners) listener(notice);
    },
    settings: {
      ...options.venue,
      cash: cashOf(options, series),
      seed,
      faults: options.faults ?? {},
      instruments: { ...instruments, ...options.venue?.instruments },
      stockNames: {
        ...Object.fromEntries(series.map((one) => [one.symbol, one.symbol.slice(0, one.symbol.lastIndexOf('.'))])),
        ...options.venue?.stockNames,
      },
    },
  });
  if (saved !== undefined) venue.restore(saved.snapshot);
  // The kept account's books already carry what the replay passed before it stopped.
  if (saved?.marketTime !== undefined) venue.resumeCarry(saved.marketTime);
  const nameOf = (symbol: SecuritySymbol): string => venue.instrument(symbol).name || symbol;
  const lotSizeOf = (symbol: SecuritySymbol): number => venue.instrument(symbol).lotSize;

  let sockets: SocketServer | undefined;
  const sessions = new SocketSessions(clock, { ...DEFAULT_SESSION_SETTINGS, ...options.sessions }, () => sockets?.online ?? 0);
  const subscriptions = new QuoteSubscriptions(board, seed);
  const quoteLimits = options.limits?.quote === false ? undefined : (options.limits?.quote ?? DEFAULT_QUOTE_LIMITS);
  const calendar = new TradingCalendar(series);
  const underlyings = new Underlyings(board, candles, marketClock, nameOf);
  const optionChains = new OptionChains(underlyings, seed);
  const warrants = new Warrants(underlyings, seed);
  const queries = [
    ...quoteQueries({ board, candles, calendar, marketClock, seed, nameOf, lotSizeOf }),
    ...referenceQueries({
      board,
      underlyings,
      options: optionChains,
      warrants,
      calcIndexes: new CalcIndexes(underlyings, optionChains, warrants, seed),
      seed,
    }),
  ];
  const trade = tradeService();
  sockets = new SocketServer({
    clock,
    logger,
    faults: venue.faults,
    sessions: () => sessions,
    services: { quote: quoteService(subscriptions, queries, clock, quoteLimits), trade },
    pingIntervalMs: options.pingIntervalMs ?? DEFAULT_PING_INTERVAL_MS,
  });

  const router = new Router([
    ...orderRoutes(venue, marketClock),
    ...accountRoutes(venue),
    ...cashFlowRoutes(venue),
    ...watchlistRoutes({ symbols: candles.symbols, nameOf, now: () => marketClock.now() }),
    ...temperatureRoutes({ calendar, now: () => marketClock.now(), seed }),
    ...contentRoutes({ symbols: candles.symbols, nameOf, now: () => marketClock.now() }),
    ...statementRoutes(venue, (symbol) => board.marketDays(symbol)),
    ...tokenRoutes(tokens, sessions, clock),
  ]);
  const server = createServer(
    createHttpHandler({
      clock,
      router,
      auth: new RequestAuthenticator(credentials, tokens, clock, options.replayWindowMs),
      limits: options.limits?.http === false ? undefined : new RateWindows(clock, options.limits?.http ?? DEFAULT_HTTP_LIMIT),
      faults: venue.faults,
      logger,
    }),
  );
  server.on('upgrade', (request, socket, head) => sockets.upgrade(request, socket, head));
  await listen(server, options.port ?? 0, options.host ?? '127.0.0.1').catch((error: unknown) => {
    store?.close();
    throw error;
  });
  const port = (server.address() as AddressInfo).port;
  const endpoints = endpointsOf(options.host ?? '127.0.0.1', port);

  const save = (): void => store?.save(venue, replay.marketTime ?? saved?.marketTime, credentials, tokens.all());
  venue.onOrderUpdate((update) => {
    trade.notify(update, sockets.linksOf('trade'));
    store?.orderChanged(update.orderId, save);
  });
  replay.onTick((tick) => {
    try {
      marketClock.advance(tick.time, replay.nextTickTime, replay.barsEnd);
      venue.onTick(tick.symbol, tick.price, tick.volume, tick.time, {
        start: tick.barStart,
        end: tick.barEnd,
        volume: tick.barVolume,
        lastOfDay: tick.lastOfDay,
      });
      candles.onTick(tick);
      subscriptions.publish(board.apply(tick));
      marketClock.runDue();
      if (tick.point === 'close') store?.barClosed(save);
    } catch (error) {
      logger.error({ symbol: tick.symbol, time: new Date(tick.time).toISOString(), error: (error as Error).message }, 'tick failed');
    }
  });
  replay.onEnd(() => logger.info({ marketTime: new Date(marketClock.now()).toISOString() }, 'replay finished: no more candles'));
  const lockstep = new Lockstep(replay, marketClock, logger);
  save();
  if (options.replay !== 'manual') {
    marketClock.setPaced(true);
    replay.start();
  }
  logger.info({ url: endpoints.httpUrl, symbols: candles.symbols, speed, state: options.stateFile }, 'simulator listening');

  let closing: Promise<void> | undefined;
  return {
    ...endpoints,
    port,
    env: envOf(credentials, endpoints),
    credentials,
    symbols: candles.symbols,
    venue,
    replay,
    marketClock,
    lockstep: (settled) => lockstep.join(settled),
    onCarry: (listener) => {
      carryListeners.add(listener);
      return () => void carryListeners.delete(listener);
    },
    connections: () => sockets.connections(),
    close: () =>
      (closing ??= (async () => {
        replay.stop();
        marketClock.stop();
        await sockets.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        save();
        store?.close();
        logger.info({ url: endpoints.httpUrl }, 'simulator stopped');
      })()),
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(listenError(error, host, port, { host: '--host', port: '--port' })));
    server.listen(port, host, () => resolve());
  });
}

/** Account currencies: as configured, else those of the data's markets, each funded with the same cash. */
function cashOf(options: SimulatorOptions, series: readonly SymbolSeries[]): Record<string, string> {
  const configured = options.currency === undefined ? [] : typeof options.currency === 'string' ? [options.currency] : options.currency;
  const currencies = configured.length > 0 ? configured : [...new Set(series.map((one) => currencyOf(marketOf(one.symbol))))];
  return Object.fromEntries(currencies.map((currency) => [currency.toUpperCase(), String(options.cash ?? DEFAULT_CASH)]));
}

/** The dividends and splits the venue applies: none for adjusted prices, else those given and those beside the data files. */
async function actionsOf(options: SimulatorOptions, series: readonly SymbolSeries[]): Promise<CorporateAction[]> {
  if (options.adjust === 'forward') return [];
  const symbols = series.map((one) => one.symbol);
  const actions = (options.actions ?? []).filter((action) => symbols.includes(action.symbol));
  if (options.candles === undefined)
    for (const path of [options.data ?? DEFAULT_DATA].flat()) actions.push(...(await loadCorporateActions(path, symbols)));
  return actions;
}

/** Each symbol's close before the replay starts, the first day's previous close. */
function previousCloses(series: readonly SymbolSeries[]): Map<SecuritySymbol, number> {
  return new Map(series.filter((one) => one.replayFrom > 0).map((one) => [one.symbol, one.candles[one.replayFrom - 1]!.close]));
}

/**
 * Replays the ticks a previous run already delivered into the market state only (the venue has its books);
 * returns the market time to resume at. A position saved at a bar's close (its last tick) stands at that bar's
 * end, where the previous run's clients saw the bar close: the bar is over, and a client starting now counts
 * it among the closed bars, not as one still forming (never past the next tick).
 */
function fastForward(replay: MarketReplay, until: number, apply: (tick: ReplayTick) => void): number {
  const latest = new Map<SecuritySymbol, ReplayTick>();
  while (replay.nextTickTime !== undefined && replay.nextTickTime <= until) {
    const tick = replay.step()!;
    latest.set(tick.symbol, tick);
    apply(tick);
  }
  let closedEnd = Number.NEGATIVE_INFINITY;
  for (const tick of latest.values()) if (tick.point === 'close' && tick.time === until) closedEnd = Math.max(closedEnd, tick.barEnd);
  return Math.max(until, Math.min(closedEnd, replay.nextTickTime ?? Number.POSITIVE_INFINITY));
}
