// `trader run`: chooses the mode (paper unless live is asked for, confirmed and possible), loads the
// strategy and the risk config, starts the session and runs until Ctrl-C / SIGTERM, `--for` or the session
// ending by itself; then stops gracefully (intents stopped, in-flight requests settled, optionally flattened
// and cancelled, journal flushed) and prints the summary. A second Ctrl-C while stopping exits at once; one
// while the session starts cuts the start short (exit 130).
import { reportUnhandledStreamErrors } from '../../strategy/unhandled-errors.js';
import { systemClock } from '../../clock/system-clock.js';
import type { TimerHandle } from '../../domain/clock.js';
import { InvalidInputError } from '../../domain/errors.js';
import { createLogger, type Logger } from '../../log/logger.js';
import { loadRiskConfig } from '../../risk/config.js';
import { startSession, type SessionEnd, type SessionVenue } from '../../runtime/session.js';
import { formatDuration } from '../../schedule/duration.js';
import { loadStrategy, parseParamAssignments, type PreparedStrategy } from '../../strategy/index.js';
import { untilInterrupted } from '../market/socket-session.js';
import { periodFlag } from '../trading/flags.js';
import { accountDayFile, runSettings, type RunArgs, type RunSettings } from './flags.js';
import { chooseMode, type RunMode } from './mode.js';
import { defaultTokenFile, opsFlags } from './ops-flags.js';
import { printRunSummary } from './summary.js';
import type { RunWatch } from './watch.js';

type StopReason = { readonly kind: 'interrupted' } | { readonly kind: 'time-up' } | SessionEnd;

export async function runAction(args: RunArgs): Promise<void> {
  const mode = chooseMode(args);
  const settings = runSettings(args, mode);
  const watchFlags = opsFlags(args, process.env, { tokenFile: defaultTokenFile(settings.journal) });
  // The dashboard, metrics and chat are loaded only when asked for: a plain run starts without them.
  const watching = watchFlags === undefined ? undefined : await import('../../ops/index.js');
  const logs = watchFlags?.ui === undefined ? undefined : new watching!.LogTail();
  const logger = createLogger({
    level: args.verbose === true ? 'debug' : (process.env['LOG_LEVEL'] ?? 'info'),
    pretty: process.stderr.isTTY === true && args['json-logs'] !== true,
    singleLine: true,
    ...(logs === undefined ? {} : { tee: logs }),
  });
  // Its own subscriptions' errors are reported in one line rather than crashing the process.
  reportUnhandledStreamErrors();
  const strategy = await loadStrategy(args.strategy, {
    params: parseParamAssignments((args.param ?? []).map(String)),
    ...(settings.symbols === undefined ? {} : { symbols: settings.symbols }),
    ...(args.period === undefined ? {} : { period: periodFlag(String(args.period), '--period') }),
  });
  const risk = args.risk === undefined ? undefined : await loadRiskConfig(args.risk);

  // Listening before starting: a Ctrl-C while the session starts cuts the start short (what is open so far
  // is closed), rather than waiting for a slow venue, a big data file or a long warm-up. And before the first
  // line: a caller may stop the run as soon as it sees it.
  const stopRequested = new AbortController();
  const interrupted = untilInterrupted(stopRequested.signal);
  const startCut = new AbortController();
  void interrupted.then(() => startCut.abort(new Error('interrupted while starting')));
  announce(logger, mode, settings, strategy, args.risk);
  const gate = watching === undefined ? undefined : new watching.ManualGate();
  const session = await startSession({
    venue: venueOf(mode, settings),
    strategies: [strategy],
    ...(gate === undefined ? {} : { gate }),
    journalFile: settings.journal,
    ...(risk === undefined ? {} : { risk }),
    logger,
    signal: startCut.signal,
  }).catch((error: unknown) => {
    if (startCut.signal.aborted) return undefined;
    throw explainStartFailure(error, settings);
  });
  if (session === undefined) {
    logger.warn({ journal: settings.journal }, 'interrupted while starting: the start was cut short; nothing was left running');
    process.exitCode = 130;
    return;
  }
  let watch: RunWatch | undefined;
  if (watchFlags !== undefined) {
    const { startRunWatch } = await import('./watch.js');
    watch = await startRunWatch({
      flags: watchFlags,
      session,
      gate: gate!,
      strategy,
      clock: systemClock,
      logger,
      logs,
      tokenExpiresAt: mode.mode === 'live' ? mode.config.tokenExpiresAt : undefined,
      dayFile: accountDayFile(settings.journal),
    }).catch(async (error: unknown) => {
      await session.stop();
      throw error;
    });
  }
  let forTimer: TimerHandle | undefined;
  const reason = await new Promise<StopReason>((resolve) => {
    void interrupted.then(() => resolve({ kind: 'interrupted' }));
    void session.ended.then(resolve);
    if (settings.forMs !== undefined) forTimer = systemClock.setTimeout(() => resolve({ kind: 'time-up' }), settings.forMs);
  });
  // A pending --for timer would keep the process alive after the summary until the full time has passed.
  forTimer?.cancel();
  stopRequested.abort();
  logger.info(
    { reason: reason.kind },
    `stopping (${describeReason(reason, settings)}): waiting for requests in flight, then flushing the journal`,
  );
  const forceExit = (): void => {
    process.stderr.write(
      'error: interrupted again: exiting now; the journal holds everything recorded so far, the next start reconciles the rest\n',
    );
    process.exit(130);
  };
  process.once('SIGINT', forceExit);
  process.once('SIGTERM', forceExit);
  await watch?.beforeStop();
  const report = await session.stop({ cancelOpenOrders: args['cancel-on-exit'] === true, flatten: args['flatten-on-exit'] === true });
  await watch?.close();
  process.off('SIGINT', forceExit);
  process.off('SIGTERM', forceExit);
  logger.info({ journal: settings.journal }, 'stopped; journal flushed');
  printRunSummary(report, args.json === true);
  const failed =
    reason.kind === 'strategies-failed' ||
    reason.kind === 'connection-closed' ||
    report.summary.strategies.some((one) => one.state === 'failed');
  if (failed) process.exitCode = 1;
}

// The simulator names symbols it has no candles for; say which files a paper run replays and how to change them.
function explainStartFailure(error: unknown, settings: RunSettings): unknown {
  if (settings.paper === undefined || !(error instanceof InvalidInputError) || error.field !== 'symbols') return error;
  // The loader's own message names the data path already; the simulator's does not.
  const where = error.message.includes(String(settings.paper.data)) ? '' : ` in ${settings.paper.data}`;
  return new InvalidInputError(
    `${error.message}${where}: a paper run replays candle files; point --data at SYMBOL.csv files for the strategy's symbols`,
    '--data',
  );
}

function venueOf(mode: RunMode, settings: RunSettings): SessionVenue {
  if (mode.mode === 'live') return { mode: 'live', config: mode.config };
  const paper = settings.paper!;
  return {
    mode: 'paper',
    data: paper.data,
    speed: paper.speed,
    cash: paper.cash,
    stateFile: paper.stateFile,
    onBadRow: paper.onBadRow,
    adjust: paper.adjust,
    venue: { shortSelling: paper.shortSelling, borrowFeeRate: paper.borrowFeeRate, shortMarginRatios: paper.shortMarginRatios },
    ...(paper.from === undefined ? {} : { from: paper.from }),
  };
}

function announce(logger: Logger, mode: RunMode, settings: RunSettings, strategy: PreparedStrategy, riskFile: string | undefined): void {
  const what = {
    strategy: strategy.name,
    source: strategy.source,
    symbols: strategy.symbols,
    period: strategy.period,
    params: strategy.params,
    journal: settings.journal,
    risk: riskFile,
  };
  if (mode.mode === 'live') {
    logger.warn({ ...what, service: mode.config.httpUrl }, `LIVE trading: ${strategy.name} places real orders on ${mode.config.httpUrl}`);
    return;
  }
  const paper = settings.paper!;
  logger.info(
    {
      ...what,
      data: paper.data,
      speed: paper.speed,
      from: paper.from,
      short: paper.shortSelling,
      borrowRate: paper.borrowFeeRate,
      adjust: paper.adjust,
      paperAccount: paper.stateFile,
    },
    `paper trading: ${strategy.name} on ${strategy.symbols.join(', ')} (${strategy.period}) against the built-in simulator, replaying ${paper.data} at ${paper.speed}x ` +
      `(the account in ${paper.stateFile} is kept across runs; delete it and ${settings.journal} to start afresh)`,
  );
}

function describeReason(reason: StopReason, settings: RunSettings): string {
  switch (reason.kind) {
    case 'interrupted':
      return 'interrupted';
    case 'time-up':
      return `--for ${formatDuration(settings.forMs ?? 0)} is up`;
    default:
      return reason.message;
  }
}
