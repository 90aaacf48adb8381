// The `trader` commands of this area (registered by src/cli/main.ts): quotes, reference data, candles,
// live streams and history downloads over the quote connection.
import { lazyCommand } from './lazy-command.js';

const snapshots = () => import('../market/snapshot-commands.js');

export const marketCommands = [
  lazyCommand('quote <symbols..>', 'Show the latest quote of one or more securities', async () => (await snapshots()).quoteCommand),
  lazyCommand(
    'static <symbols..>',
    'Show static reference data: names, exchange, lot size, shares, EPS, board',
    async () => (await snapshots()).staticCommand,
  ),
  lazyCommand(
    'candles <symbol>',
    'Show candlesticks: the latest --count bars, or every bar from --from to --to',
    async () => (await import('../market/candles-command.js')).candlesCommand,
  ),
  lazyCommand(
    'capital-flow <symbol>',
    "Show today's intraday capital flow (net inflow per minute) of a security",
    async () => (await snapshots()).capitalFlowCommand,
  ),
  lazyCommand(
    'capital-distribution <symbol>',
    'Show capital in and out of a security by order size (large, medium, small)',
    async () => (await snapshots()).capitalDistributionCommand,
  ),
  lazyCommand(
    'trading-days',
    'List the trading days (and half days) of a market between two dates',
    async () => (await snapshots()).tradingDaysCommand,
  ),
  lazyCommand(
    'watch <symbols..>',
    'Stream live quotes (and depth, trades) as JSON lines until Ctrl-C',
    async () => (await import('../market/watch-command.js')).watchCommand,
  ),
  lazyCommand(
    'data <action>',
    'Manage candle data files (fetch history from the service)',
    async () => (await import('../market/data-command.js')).dataCommand,
  ),
];
