// The `trader` commands of this area (registered by src/cli/main.ts): quotes, reference data, candles,
// live streams and history downloads over the quote connection.
import type { CommandModule } from 'yargs';
import { candlesCommand } from '../market/candles-command.js';
import { dataCommand } from '../market/data-command.js';
import {
  brokersCommand,
  depthCommand,
  intradayCommand,
  participantsCommand,
  tradesCommand,
  tradingSessionsCommand,
} from '../market/book-commands.js';
import {
  optionChainCommand,
  optionQuoteCommand,
  warrantIssuersCommand,
  warrantQuoteCommand,
  warrantsCommand,
} from '../market/derivative-commands.js';
import { calcIndexesCommand, quoteProfileCommand, temperatureCommand } from '../market/index-commands.js';
import { realtimeCommand } from '../market/realtime-command.js';
import {
  capitalDistributionCommand,
  capitalFlowCommand,
  quoteCommand,
  staticCommand,
  tradingDaysCommand,
} from '../market/snapshot-commands.js';
import { watchCommand } from '../market/watch-command.js';

// biome-ignore lint/suspicious/noExplicitAny: each command has its own argument type
export const marketCommands: readonly CommandModule<object, any>[] = [
  quoteCommand,
  staticCommand,
  candlesCommand,
  capitalFlowCommand,
  capitalDistributionCommand,
  tradingDaysCommand,
  tradingSessionsCommand,
  depthCommand,
  brokersCommand,
  participantsCommand,
  tradesCommand,
  intradayCommand,
  optionChainCommand,
  optionQuoteCommand,
  warrantQuoteCommand,
  warrantIssuersCommand,
  warrantsCommand,
  calcIndexesCommand,
  temperatureCommand,
  quoteProfileCommand,
  watchCommand,
  realtimeCommand,
  dataCommand,
];
