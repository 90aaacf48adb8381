// What a simulator run is configured with (in-process callers and `trader sim` alike), the defaults, and the
// six LONGPORT_* variables a client needs to reach it.
import type { Candle } from '../../domain/candle.js';
import type { Clock } from '../../domain/clock.js';
import type { CorporateAction, PriceAdjustment } from '../../domain/corporate-action.js';
import { InvalidInputError } from '../../domain/errors.js';
import type { SecuritySymbol } from '../../domain/symbol.js';
import type { BadRowPolicy } from '../../feeds/history/bad-data-error.js';
import type { Logger } from '../../log/logger.js';
import type { Credentials } from '../../openapi/http/signer.js';
import type { FaultPlanInput, VenueSettingsInput } from '../venue/index.js';
import type { CallLimit } from './rate-windows.js';
import type { SessionSettings } from './socket/sessions.js';
import type { QuoteCallLimits } from './socket/link-services.js';

export interface SimulatorOptions {
  /** TCP port; 0 (the default) picks a free one. */
  readonly port?: number;
  /** Listen address; loopback by default. */
  readonly host?: string;
  /** CSV files or folders of `SYMBOL.csv` files (default `backtest-data`). */
  readonly data?: string | readonly string[];
  /** Candle series in memory instead of files (one array per symbol, oldest first). */
  readonly candles?: readonly (readonly Candle[])[];
  /**
   * What the data's prices are: 'none' (the default: unadjusted, so dividends and splits from the candle
   * files' Dividends / Stock Splits columns or an actions.csv beside them are applied on their ex-dates, as a
   * backtest does) or 'forward' (already adjusted: no actions applied).
   */
  readonly adjust?: PriceAdjustment;
  /** Dividends and splits of in-memory `candles` (with 'none'); added to those read beside data files. */
  readonly actions?: readonly CorporateAction[];
  /** Only these symbols of the data. */
  readonly symbols?: readonly SecuritySymbol[];
  /** Bad CSV rows: 'fail' (default) refuses to start, listing them; 'skip' drops them, logging each. */
  readonly onBadRow?: BadRowPolicy;
  /** YYYY-MM-DD the replay starts at; earlier bars are history only. */
  readonly from?: string;
  /** Market time per real time (default 60: a market minute per second). */
  readonly speed?: number;
  /** 'paced' (default): ticks go out on the clock at `speed`; 'manual': only `replay.step()` delivers them. */
  readonly replay?: 'paced' | 'manual';
  /** Starting cash in each account currency (default 1,000,000). */
  readonly cash?: number | string;
  /** Account currencies (default: the currencies of the data's markets). */
  readonly currency?: string | readonly string[];
  /** Seeds every random choice: faults, synthesised depth and capital flow (default 1). */
  readonly seed?: number;
  /** Faults to inject (all off by default). */
  readonly faults?: FaultPlanInput;
  /** The rest of the venue's settings: margin ratios, fees, fill model, slippage, stock names… */
  readonly venue?: Omit<VenueSettingsInput, 'cash' | 'seed' | 'faults'>;
  /** Fixed credentials; generated ones (kept in the state file when there is one) otherwise. */
  readonly credentials?: Partial<Credentials>;
  /** Lifetime of the access token from start (default 90 days). */
  readonly tokenLifetimeMs?: number;
  /** SQLite file the account is kept in across restarts. */
  readonly stateFile?: string;
  /** Base clock for pacing, pings, tokens and limits (the system clock by default; tests pass a VirtualClock). */
  readonly clock?: Clock;
  readonly logger?: Logger;
  /** Server-side call limits; `false` switches one off (benchmarks). */
  readonly limits?: { readonly http?: CallLimit | false; readonly quote?: QuoteCallLimits | false };
  readonly sessions?: Partial<SessionSettings>;
  /** Interval of ws-level pings (default 10 s). */
  readonly pingIntervalMs?: number;
  /** How long a write's signature counts as seen for replay protection (default 5 min). */
  readonly replayWindowMs?: number;
  /** Stops the start while the data is read (a Ctrl-C): it then rejects with the signal's reason, nothing opened. */
  readonly signal?: AbortSignal;
}

export const DEFAULT_SPEED = 60;
export const DEFAULT_CASH = 1_000_000;
export const DEFAULT_DATA = 'backtest-data';
export const DEFAULT_PING_INTERVAL_MS = 10_000;

export const ENV_NAMES = [
  'LONGPORT_APP_KEY',
  'LONGPORT_APP_SECRET',
  'LONGPORT_ACCESS_TOKEN',
  'LONGPORT_HTTP_URL',
  'LONGPORT_QUOTE_WS_URL',
  'LONGPORT_TRADE_WS_URL',
] as const;
export type SimulatorEnv = Readonly<Record<(typeof ENV_NAMES)[number], string>>;

export interface Endpoints {
  readonly httpUrl: string;
  readonly quoteWsUrl: string;
  readonly tradeWsUrl: string;
}

export function endpointsOf(host: string, port: number): Endpoints {
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    httpUrl: `http://${reachable}:${port}`,
    quoteWsUrl: `ws://${reachable}:${port}/v2/quote`,
    tradeWsUrl: `ws://${reachable}:${port}/v2/trade`,
  };
}

export function envOf(credentials: Credentials, endpoints: Endpoints): SimulatorEnv {
  return {
    LONGPORT_APP_KEY: credentials.appKey,
    LONGPORT_APP_SECRET: credentials.appSecret,
    LONGPORT_ACCESS_TOKEN: credentials.accessToken,
    LONGPORT_HTTP_URL: endpoints.httpUrl,
    LONGPORT_QUOTE_WS_URL: endpoints.quoteWsUrl,
    LONGPORT_TRADE_WS_URL: endpoints.tradeWsUrl,
  };
}

/** Checks the numeric options up front, naming the bad one. */
export function checkOptions(options: SimulatorOptions): void {
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new InvalidInputError(`port must be an integer from 0 to 65535, got ${port}`, 'port');
  const speed = options.speed ?? DEFAULT_SPEED;
  if (!(speed > 0) || !Number.isFinite(speed)) throw new InvalidInputError(`speed must be a positive number, got ${speed}`, 'speed');
  if (options.from !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(options.from))
    throw new InvalidInputError(`from must be a YYYY-MM-DD date, got "${options.from}"`, 'from');
  if (options.tokenLifetimeMs !== undefined && !(options.tokenLifetimeMs > 0))
    throw new InvalidInputError('tokenLifetimeMs must be positive', 'tokenLifetimeMs');
}
