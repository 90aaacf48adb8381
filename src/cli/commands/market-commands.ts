// The `trader` commands of this area (registered by src/cli/main.ts): quotes, reference data, candles,
// live streams and history downloads over the quote connection.
import { lazyCommand } from './lazy-command.js';

const snapshotModule = () => import('../market/snapshot-commands.js');
const bookModule = () => import('../market/book-commands.js');
const derivativeModule = () => import('../market/derivative-commands.js');
const indexModule = () => import('../market/index-commands.js');

export const marketCommands = [
  lazyCommand('quote <symbols..>', 'Show the latest quote of one or more securities', async () => (await snapshotModule()).quoteCommand),
  lazyCommand(
    'static <symbols..>',
    'Show static reference data: names, exchange, lot size, shares, EPS, board',
    async () => (await snapshotModule()).staticCommand,
  ),
  lazyCommand(
    'candles <symbol>',
    'Show candlesticks: the latest --count bars, --count bars up to (or from) --at, or every bar from --from to --to',
    async () => (await import('../market/candles-command.js')).candlesCommand,
  ),
  lazyCommand(
    'capital-flow <symbol>',
    "Show today's intraday capital flow (net inflow per minute) of a security",
    async () => (await snapshotModule()).capitalFlowCommand,
  ),
  lazyCommand(
    'capital-distribution <symbol>',
    'Show capital in and out of a security by order size (large, medium, small)',
    async () => (await snapshotModule()).capitalDistributionCommand,
  ),
  lazyCommand(
    'trading-days',
    'List the trading days (and half days) of a market between two dates',
    async () => (await snapshotModule()).tradingDaysCommand,
  ),
  lazyCommand(
    'trading-sessions',
    "List each market's trading sessions (local times)",
    async () => (await bookModule()).tradingSessionsCommand,
  ),
  lazyCommand(
    'depth <symbol>',
    'Show the order book: price, volume and order count at each ask and bid level',
    async () => (await bookModule()).depthCommand,
  ),
  lazyCommand(
    'brokers <symbol>',
    'Show the broker queue at each ask and bid level (HK securities); `trader participants` names the ids',
    async () => (await bookModule()).brokersCommand,
  ),
  lazyCommand(
    'participants',
    'List the exchange participants and their broker ids (the names behind `trader brokers`)',
    async () => (await bookModule()).participantsCommand,
  ),
  lazyCommand('trades <symbol>', 'Show the latest trades of a security', async () => (await bookModule()).tradesCommand),
  lazyCommand(
    'intraday <symbol>',
    "Show today's minute lines: price, volume, turnover and average price of each minute so far",
    async () => (await bookModule()).intradayCommand,
  ),
  lazyCommand(
    'option-chain <symbol>',
    'List the expiry dates of the options on a security, or with --expiry the strikes of one date',
    async () => (await derivativeModule()).optionChainCommand,
  ),
  lazyCommand(
    'option-quote <symbols..>',
    'Show option quotes with their terms, implied volatility and open interest',
    async () => (await derivativeModule()).optionQuoteCommand,
  ),
  lazyCommand(
    'warrant-quote <symbols..>',
    'Show quotes of HK warrants and CBBCs with their terms',
    async () => (await derivativeModule()).warrantQuoteCommand,
  ),
  lazyCommand(
    'warrant-issuers',
    'List the warrant issuers and their ids (for `trader warrants --issuer`)',
    async () => (await derivativeModule()).warrantIssuersCommand,
  ),
  lazyCommand(
    'warrants <symbol>',
    'Screen the warrants on an HK security: filter by type, issuer, expiry, bounds and status, sort by any figure',
    async () => (await derivativeModule()).warrantsCommand,
  ),
  lazyCommand(
    'calc-indexes <symbols..>',
    'Show computed indexes of stocks, options or warrants: change rates, ratios, valuation, Greeks, \u2026',
    async () => (await indexModule()).calcIndexesCommand,
  ),
  lazyCommand(
    'temperature',
    "Show a market's temperature (0 cold \u2026 100 hot, with valuation and sentiment), now or by day",
    async () => (await indexModule()).temperatureCommand,
  ),
  lazyCommand(
    'quote-profile',
    "Show the account's quote access: member id, quote level and the quote packages held",
    async () => (await indexModule()).quoteProfileCommand,
  ),
  lazyCommand(
    'watch <symbols..>',
    'Stream live quotes (and depth, trades) as JSON lines until Ctrl-C',
    async () => (await import('../market/watch-command.js')).watchCommand,
  ),
  lazyCommand(
    'realtime <symbols..>',
    'Subscribe, let the pushes build the local realtime state, then print it (quote, depth, brokers, trades, candles)',
    async () => (await import('../market/realtime-command.js')).realtimeCommand,
  ),
  lazyCommand(
    'data <action>',
    'Manage candle data files (fetch history from the service, convert CSV to Parquet)',
    async () => (await import('../market/data-command.js')).dataCommand,
  ),
];
