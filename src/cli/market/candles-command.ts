// `trader candles`: the latest N bars (cmd 19), N bars from an anchor (cmd 27 by offset) or every bar of a date
// range (cmd 27 by date, paged), as a table, JSON, or the candle CSV format.
import type { CommandModule } from 'yargs';
import type { Candle } from '../../domain/candle.js';
import { InvalidInputError } from '../../domain/errors.js';
import { timeZoneOf } from '../../domain/market-hours.js';
import { isIntraday, PERIODS, type Period } from '../../domain/period.js';
import { marketOf, type SecuritySymbol } from '../../domain/symbol.js';
import { formatCandleCsv } from '../../feeds/history/candle-csv-writer.js';
import { ADJUST_TYPES, type AdjustType } from '../../openapi/socket/commands.js';
import type { QuoteClient } from '../../openapi/socket/quote-client.js';
import { printTable } from '../output.js';
import { choiceFlag, countFlag, dateFlag, periodFlag, symbolFlag } from '../trading/flags.js';
import { line, present } from '../trading/present.js';
import type { GlobalFlags } from '../trading/session.js';
import { marketTime } from './format.js';
import { withQuoteClient } from './socket-session.js';

interface CandlesArgs extends GlobalFlags {
  readonly symbol: string;
  readonly period: string;
  readonly count?: number;
  readonly from?: string;
  readonly to?: string;
  readonly at?: string;
  readonly forward?: boolean;
  readonly adjust: string;
  readonly csv?: boolean;
  readonly allSessions?: boolean;
}

export interface CandleRequest {
  readonly symbol: SecuritySymbol;
  readonly period: Period;
  readonly adjust: AdjustType;
  readonly allSessions: boolean;
  readonly range:
    | { readonly count: number }
    | { readonly from: string; readonly to: string }
    | { readonly at: Anchor; readonly count: number; readonly forward: boolean };
}

/** A market-local date, and for intraday periods optionally a minute (HHMM) within it. */
interface Anchor {
  readonly date: string;
  readonly minute?: string;
}

/** `--at YYYY-MM-DD` or `YYYY-MM-DDTHH:MM` (a space works too), market-local. */
function anchorFlag(text: string, period: Period): Anchor {
  const match = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2}))?$/.exec(String(text).trim());
  if (match === null) throw new InvalidInputError(`--at: "${text}" is not YYYY-MM-DD or YYYY-MM-DDTHH:MM`, '--at');
  const date = dateFlag(match[1]!, '--at');
  if (match[2] === undefined) return { date };
  if (Number(match[2]) > 23 || Number(match[3]) > 59) throw new InvalidInputError(`--at: "${text}" is not a time of day`, '--at');
  if (!isIntraday(period)) throw new InvalidInputError(`--at: a time of day applies to intraday periods, not ${period}`, '--at');
  return { date, minute: `${match[2]}${match[3]}` };
}

function barCount(value: number | undefined): number {
  const count = countFlag(value ?? 100, '--count')!;
  if (count > 1000)
    throw new InvalidInputError(`--count: at most 1000 bars per request (got ${count}); use --from/--to for more`, '--count');
  return count;
}

/** Validates the flags before anything is sent. */
export function candleRequest(args: CandlesArgs): CandleRequest {
  const symbol = symbolFlag(String(args.symbol), 'SYMBOL');
  const period = periodFlag(String(args.period), '--period');
  const adjust = choiceFlag(Object.keys(ADJUST_TYPES) as AdjustType[], args.adjust, '--adjust');
  const hasRange = args.from !== undefined || args.to !== undefined;
  if (hasRange && args.count !== undefined) throw new InvalidInputError('give either --count or --from/--to, not both', '--count');
  if (hasRange && args.at !== undefined) throw new InvalidInputError('give either --at or --from/--to, not both', '--at');
  if (args.forward === true && args.at === undefined) throw new InvalidInputError('--forward applies with --at', '--forward');
  if (args.csv === true && args.json === true) throw new InvalidInputError('give either --csv or --json, not both', '--csv');
  const base = { symbol, period, adjust, allSessions: args.allSessions === true };
  if (args.at !== undefined)
    return { ...base, range: { at: anchorFlag(args.at, period), count: barCount(args.count), forward: args.forward === true } };
  if (!hasRange) return { ...base, range: { count: barCount(args.count) } };
  if (args.from === undefined || args.to === undefined)
    throw new InvalidInputError('--from and --to go together', args.from === undefined ? '--from' : '--to');
  const from = dateFlag(args.from, '--from');
  const to = dateFlag(args.to, '--to');
  if (from > to) throw new InvalidInputError(`--from ${from} is after --to ${to}`, '--from');
  return { ...base, range: { from, to } };
}

export async function fetchCandles(client: QuoteClient, request: CandleRequest): Promise<Candle[]> {
  const query = { adjust: request.adjust, allSessions: request.allSessions };
  const { range } = request;
  if ('at' in range)
    return client.historyByOffset(request.symbol, request.period, {
      ...query,
      direction: range.forward ? 'forward' : 'backward',
      ...range.at,
      count: range.count,
    });
  if ('count' in range) return client.candlesticks(request.symbol, request.period, range.count, query);
  const candles: Candle[] = [];
  for await (const page of client.historyPages(request.symbol, request.period, range, query)) candles.push(...page);
  return candles;
}

export const candlesCommand: CommandModule<object, CandlesArgs> = {
  command: 'candles <symbol>',
  describe: 'Show candlesticks: the latest --count bars, --count bars up to (or from) --at, or every bar from --from to --to',
  builder: (yargs) =>
    yargs
      .positional('symbol', { type: 'string', demandOption: true, describe: 'A symbol such as 700.HK' })
      .option('period', { type: 'string', default: 'day', describe: `Bar period: ${PERIODS.join(', ')}` })
      .option('count', { type: 'number', describe: 'The latest N bars, or N bars at --at (default 100, at most 1000)' })
      .option('at', {
        type: 'string',
        describe: 'Anchor, YYYY-MM-DD or YYYY-MM-DDTHH:MM (market-local): the --count bars up to and including it',
      })
      .option('forward', { type: 'boolean', describe: 'With --at: the --count bars from the anchor on' })
      .option('from', { type: 'string', describe: 'First date, YYYY-MM-DD (market-local), with --to' })
      .option('to', { type: 'string', describe: 'Last date, YYYY-MM-DD, inclusive' })
      .option('adjust', { type: 'string', default: 'none', describe: 'Price adjustment: none or forward' })
      .option('all-sessions', { type: 'boolean', describe: 'Include pre-market, post-market and overnight bars' })
      .option('csv', {
        type: 'boolean',
        describe: 'Print the candle CSV format (as `trader data fetch` writes it) instead of the table (not with --json)',
      })
      .example('$0 candles 700.HK --period day --count 20', 'The last 20 daily bars')
      .example(
        '$0 candles AAPL.US --period 5m --from 2024-03-01 --to 2024-03-05 --adjust forward',
        'Five-minute bars of a week, forward-adjusted',
      )
      .example('$0 candles 700.HK --period 1m --at 2024-01-09T10:00 --count 30', 'The half hour up to 10:00 on 9 January')
      .example('$0 candles 700.HK --period day --at 2024-01-02 --forward --count 5', 'Five daily bars from 2 January on')
      .example('$0 candles 700.HK --period week --count 52 --json', 'A year of weekly bars as JSON'),
  handler: async (args) => {
    const request = candleRequest(args);
    const candles = await withQuoteClient(args, (client) => fetchCandles(client, request));
    const zone = timeZoneOf(marketOf(request.symbol));
    if (args.csv) {
      process.stdout.write(formatCandleCsv(candles, request.period, zone));
      return;
    }
    present(args, candles, () => {
      if (candles.length === 0) return line(`no ${request.period} bars for ${request.symbol}`);
      const daily = !isIntraday(request.period);
      printTable(
        [daily ? 'DATE' : 'TIME', 'OPEN', 'HIGH', 'LOW', 'CLOSE', 'VOLUME', 'TURNOVER'],
        candles.map((candle) => [
          marketTime(candle.time, zone, daily),
          candle.open,
          candle.high,
          candle.low,
          candle.close,
          candle.volume,
          candle.turnover ?? '',
        ]),
      );
    });
  },
};
