// The official SDK (longport@3.0.18) and our own clients side by side on one simulator: each parity test asks
// both the same question and compares the answers as plain values (SDK objects through their toJSON: decimals
// as normalised text, times as epoch ms). The SDK contexts are wrapped so every call is recorded: each test file
// checks that it really drove the calls it claims (sdk-calls.ts).
import { Config, HttpClient, QuoteContext, TradeContext } from 'longport';
import { Decimal } from '../../../src/domain/decimal.js';
import type { QuoteClient } from '../../../src/openapi/socket/quote-client.js';
import type { SimulatorOptions } from '../../../src/sim/server/index.js';
import { startSimHarness, type SimHarness } from '../../support/sim/harness.js';

export interface ParityHarness extends SimHarness {
  readonly sdkConfig: Config;
  readonly sdkQuote: QuoteContext;
  readonly sdkTrade: TradeContext;
  readonly sdkHttp: HttpClient;
  readonly quotes: QuoteClient;
  /** Names of the SDK calls made so far, as `Class.method`. */
  readonly called: ReadonlySet<string>;
  /** Records a call made on an object the proxies do not see (e.g. Config.refreshAccessToken). */
  record(call: string): void;
}

function recording<T extends object>(target: T, name: string, called: Set<string>): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      const value = Reflect.get(object, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      return (...args: unknown[]) => {
        called.add(`${name}.${property}`);
        return (value as (...values: unknown[]) => unknown).apply(object, args);
      };
    },
  });
}

export async function startParity(options: SimulatorOptions = {}): Promise<ParityHarness> {
  const h = await startSimHarness({ ...options, venue: { stockNames: { '700.HK': 'TENCENT', 'AAPL.US': 'APPLE' }, ...options.venue } });
  const { sim } = h;
  const called = new Set<string>();
  const sdkConfig = new Config({
    appKey: sim.credentials.appKey,
    appSecret: sim.credentials.appSecret,
    accessToken: sim.credentials.accessToken,
    httpUrl: sim.httpUrl,
    quoteWsUrl: sim.quoteWsUrl,
    tradeWsUrl: sim.tradeWsUrl,
    enablePrintQuotePackages: false,
  });
  const [sdkQuote, sdkTrade, quotes] = await Promise.all([QuoteContext.new(sdkConfig), TradeContext.new(sdkConfig), h.quoteClient()]);
  const sdkHttp = new HttpClient(sim.httpUrl, sim.credentials.appKey, sim.credentials.appSecret, sim.credentials.accessToken);
  return {
    ...h,
    sdkConfig,
    sdkQuote: recording(sdkQuote, 'QuoteContext', called),
    sdkTrade: recording(sdkTrade, 'TradeContext', called),
    sdkHttp: recording(sdkHttp, 'HttpClient', called),
    quotes,
    called,
    record: (call) => void called.add(call),
  };
}

/** An SDK result as plain JSON (its toJSON: camelCase keys, decimals as text, times as ISO strings). */
export function sdkJson<T = Record<string, unknown>>(value: unknown): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Decimal text (or a Decimal, or a number) in one canonical form: "46722000.00" and 46722000 both "46722000". */
export function dec(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  return new Decimal(String(value)).toFixed();
}

/** An SDK time (ISO text) or ours (epoch ms) as epoch ms. */
export function ms(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'number' ? value : Date.parse(String(value));
}

export { until } from '../../support/socket/wait.js';
