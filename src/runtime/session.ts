// A strategy run in paper or live mode, assembled: the journal, the venue (the in-process simulator over the
// real protocol, or the real service), the OpenAPI broker and live market data, and the runtime, started
// with the journal reconciled before any strategy sees data. `trader run` and the scheduler both start runs
// through startSession and end them with stop().
import { Observable, type Subscription } from 'rxjs';
import { systemClock } from '../clock/system-clock.js';
import type { Clock } from '../domain/clock.js';
import type { RuntimeEvent } from '../execution/events.js';
import { silentLogger, type Logger } from '../log/logger.js';
import type { OpenApiConfig } from '../openapi/config.js';
import type { RiskLimits } from '../risk/config.js';
import type { Simulator } from '../sim/server/index.js';
import { carriedCash } from '../sim/venue/carry-notice.js';
import { openJournal } from '../store/sqlite-journal.js';
import type { PreparedStrategy } from '../strategy/prepare.js';
import { connectionReports, watchConnections, type ConnectionReport } from './connection-watch.js';
import { paperClock } from './paper-clock.js';
import { paperSettled } from './paper-lockstep.js';
import { paperReplay } from './paper-replay.js';
import { startPaperMarket, type PaperMarket, type PaperMarketOptions } from './paper-market.js';
import type { IntentGate } from './intent-gate.js';
import { createRuntime, type Runtime, type RuntimeOptions, type StopOptions } from './runtime.js';
import { SessionRecorder, type SessionReport } from './session-report.js';
import { whenSubscribed } from './subscriptions.js';
import { fetchLotSizes } from './lot-sizes.js';
import { abortable } from './abortable.js';
import { openVenueLink, type VenueLink, type VenueLinkOptions } from './venue-link.js';

export type SessionVenue = ({ readonly mode: 'paper' } & PaperMarketOptions) | { readonly mode: 'live'; readonly config: OpenApiConfig };

export interface SessionOptions {
  readonly venue: SessionVenue;
  readonly strategies: readonly PreparedStrategy[];
  /** SQLite journal file (created when missing). */
  readonly journalFile: string;
  readonly risk?: RiskLimits;
  readonly logger?: Logger;
  /** Wall clock: network timeouts, reconnects, reconciliation, status lines. The system clock by default. */
  readonly clock?: Clock;
  readonly runtime?: Pick<
    RuntimeOptions,
    'reconcileIntervalMs' | 'clientIdPrefix' | 'requestTimeoutMs' | 'lookupAttempts' | 'lookupDelayMs'
  >;
  readonly http?: VenueLinkOptions['http'];
  /** Asked before each strategy intent goes on (a person's pause or kill switch, the outage guard). */
  readonly gate?: IntentGate;
  /** A status line (positions, PnL) this often while anything happened; 0 turns it off. Default 60 s. */
  readonly statusEveryMs?: number;
  /** Cuts the start short: what is open so far is closed, and the start rejects with the abort's reason. */
  readonly signal?: AbortSignal;
}

/** Why a session cannot go on by itself. */
export type SessionEnd =
  | { readonly kind: 'strategies-failed'; readonly message: string }
  | { readonly kind: 'connection-closed'; readonly message: string };

export interface Session {
  readonly mode: SessionVenue['mode'];
  readonly runtime: Runtime;
  readonly events: Observable<RuntimeEvent>;
  readonly connections: Observable<ConnectionReport>;
  readonly positions: Runtime['positions'];
  readonly link: VenueLink;
  /** The simulator of a paper session (its venue is the paper account). */
  readonly simulator: Simulator | undefined;
  /** Resolves when the run cannot go on by itself (every strategy failed, or a connection closed for good). */
  readonly ended: Promise<SessionEnd>;
  /** The report so far. */
  report(): SessionReport;
  /** Stops the strategies, settles in-flight requests, optionally flattens and cancels, closes everything. */
  stop(options?: StopOptions): Promise<SessionReport>;
}

export async function startSession(options: SessionOptions): Promise<Session> {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger;
  const { venue, signal } = options;
  signal?.throwIfAborted();
  const symbols = [...new Set(options.strategies.flatMap((strategy) => strategy.symbols))];
  const journal = openJournal(options.journalFile);
  const cleanup: (() => Promise<void>)[] = [async () => journal.close()];
  const closeAll = async (): Promise<void> => {
    for (const step of cleanup.splice(0).reverse()) await step();
  };
  try {
    const paperVenue = venue.mode === 'paper' ? paperReplay(venue, journal.owner(), options.journalFile, logger) : undefined;
    const starting =
      paperVenue === undefined ? undefined : startPaperMarket(paperVenue, symbols, clock, logger.child({ component: 'sim' }), signal);
    const paper = starting === undefined ? undefined : await abortable(starting, signal, (late) => late.close());
    if (paper !== undefined) cleanup.push(() => paper.close());
    const config = venue.mode === 'live' ? venue.config : paper!.config;
    journal.claim({
      mode: venue.mode,
      account: config.appKey,
      venue: paperVenue?.stateFile ?? config.httpUrl,
      ...(paperVenue === undefined || paperVenue.simulator !== undefined ? {} : { replayFrom: paperVenue.from ?? '' }),
    });
    const link = await abortable(
      openVenueLink({
        config,
        clock,
        logger,
        ...(paper === undefined ? {} : { marketClock: paper.marketClock }),
        ...(options.http === undefined ? {} : { http: options.http }),
        ...(paperVenue?.limits?.quote === false ? { quoteCallLimits: false as const } : {}),
        ...(signal === undefined ? {} : { signal }),
      }),
      signal,
      (late) => late.close(),
    );
    cleanup.push(() => link.close());
    const lotSizes = await abortable(
      fetchLotSizes(link.quotes, symbols, { clock, logger, ...(signal === undefined ? {} : { signal }) }),
      signal,
    );
    const runtime = createRuntime({
      lotSizes,
      reconcileIntervalMs: 30_000,
      ...options.runtime,
      clock: paper === undefined ? clock : paperClock(paper.marketClock, clock),
      ...(paper === undefined
        ? {}
        : {
            strategyClock: paper.marketClock,
            shortSelling: paper.simulator.venue.settings.shortSelling,
            actsBetween: (symbol, after, through) => paper.simulator.venue.actsBetween(symbol, after, through),
            carriedCash: new Observable((subscriber) => paper.simulator.onCarry((notice) => subscriber.next(carriedCash(notice)))),
          }),
      marketData: link.marketData,
      broker: link.broker,
      strategies: options.strategies,
      journal,
      logger,
      wallClock: clock,
      ...(options.risk === undefined ? {} : { risk: options.risk }),
      ...(options.gate === undefined ? {} : { gate: options.gate }),
    });
    const assembled = assemble({ options, clock, logger, link, runtime, paper, closeAll });
    try {
      await abortable(assembled.begin(), signal);
    } catch (error) {
      await assembled.session.stop().catch(() => undefined);
      throw error;
    }
    return assembled.session;
  } catch (error) {
    await closeAll();
    throw error;
  }
}

interface Parts {
  readonly options: SessionOptions;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly link: VenueLink;
  readonly runtime: Runtime;
  readonly paper: PaperMarket | undefined;
  readonly closeAll: () => Promise<void>;
}

function assemble(parts: Parts): { session: Session; begin(): Promise<void> } {
  const { options, clock, logger, link, runtime, paper } = parts;
  let stopping = false;
  let endWith: (end: SessionEnd) => void = () => undefined;
  const ended = new Promise<SessionEnd>((resolve) => (endWith = resolve));
  const recorder = new SessionRecorder(
    options.venue.mode,
    runtime,
    clock,
    logger,
    options.statusEveryMs ?? 60_000,
    paper === undefined ? undefined : () => paper.marketClock.now(),
  );
  const teardowns: (() => void)[] = [];
  const subscriptions: Subscription[] = [
    recorder.watch(),
    watchConnections({
      quote: link.quotes.state$,
      trade: link.trade.state$,
      logger,
      onTradeRestored: () => runtime.reconcileNow(),
      onClosed: (report) =>
        endWith({
          kind: 'connection-closed',
          message: `the ${report.connection} connection closed: ${report.state.status === 'closed' ? report.state.reason : ''}`,
        }),
      stopping: () => stopping,
    }),
    runtime.events.subscribe((event) => {
      if (event.type !== 'strategy-failed') return;
      if (runtime.summary().strategies.every((strategy) => strategy.state === 'failed'))
        endWith({ kind: 'strategies-failed', message: 'every strategy failed' });
    }),
  ];
  if (paper !== undefined) {
    const { replay } = paper.simulator;
    teardowns.push(
      // At each bar's end the replay lets this run close the bar and act on it before the next bar's first tick.
      paper.simulator.lockstep(paperSettled(link, runtime)),
      replay.onEnd(() =>
        logger.info(
          { marketTime: new Date(paper.marketClock.now()).toISOString() },
          'replay finished: the data has no more bars (Ctrl-C stops the run)',
        ),
      ),
    );
  }
  let stopped: Promise<SessionReport> | undefined;
  const session: Session = {
    mode: options.venue.mode,
    runtime,
    events: runtime.events,
    connections: connectionReports(link.quotes.state$, link.trade.state$),
    positions: runtime.positions,
    link,
    simulator: paper?.simulator,
    ended,
    report: () => recorder.report(),
    stop: (stopOptions = {}) =>
      (stopped ??= (async () => {
        stopping = true;
        try {
          await runtime.stop(stopOptions);
        } finally {
          for (const subscription of subscriptions) subscription.unsubscribe();
          for (const teardown of teardowns) teardown();
          recorder.close();
          await parts.closeAll();
        }
        return recorder.report();
      })()),
  };
  return {
    session,
    // A start cut short stops the session while this still runs: it then sets nothing going.
    async begin() {
      await runtime.start();
      const quotes = await whenSubscribed(link.quotes);
      if (stopping) return;
      recorder.started(quotes);
      paper?.play();
    },
  };
}
