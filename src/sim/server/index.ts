// The simulated broker's protocol server: start it in-process, read its endpoints and credentials, share
// its market clock.
export { startSimulator, type Simulator } from './simulator.js';
export type { Settled } from './lockstep.js';
export {
  DEFAULT_CASH,
  DEFAULT_DATA,
  DEFAULT_PING_INTERVAL_MS,
  DEFAULT_SPEED,
  ENV_NAMES,
  type Endpoints,
  type SimulatorEnv,
  type SimulatorOptions,
} from './options.js';
export { MarketClock } from './market/market-clock.js';
export { SIM_CODES } from './http/service-failure.js';
export { DEFAULT_HTTP_LIMIT, type CallLimit } from './rate-windows.js';
export { DEFAULT_QUOTE_LIMITS, type QuoteCallLimits } from './socket/link-services.js';
export { DEFAULT_SESSION_SETTINGS, type SessionSettings } from './socket/sessions.js';
export { DEFAULT_TOKEN_LIFETIME_MS } from './credentials.js';
export { MAX_SUBSCRIBED_SYMBOLS } from './socket/quote-subscriptions.js';
export type { ConnectionInfo } from './socket/socket-server.js';
