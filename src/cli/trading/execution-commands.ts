// `trader executions`, `trader cash-flow`, `trader fund-positions`: fills of today or a past range, the account's
// cash and share movements, and fund holdings.
import type { CommandModule } from 'yargs';
import { InvalidInputError } from '../../domain/errors.js';
import { CASH_FLOW_TYPES, type Execution } from '../../openapi/http/types.js';
import { printTable } from '../output.js';
import { choiceFlag, countFlag, symbolFlag, textFlag, timeFlag } from './flags.js';
import { decimal, line, present, time } from './present.js';
import { withOpenApi, type GlobalFlags } from './session.js';

interface ExecutionsArgs extends GlobalFlags {
  readonly history?: boolean;
  readonly symbol?: string;
  readonly orderId?: string;
  readonly start?: string;
  readonly end?: string;
}

export const executionsCommand: CommandModule<object, ExecutionsArgs> = {
  command: 'executions',
  describe: "List today's fills, or with --history the fills of past days (today not included)",
  builder: (yargs) =>
    yargs
      .option('history', { type: 'boolean', describe: 'Fills of past days (90 days back unless --start)' })
      .option('symbol', { type: 'string', describe: 'Only this symbol' })
      .option('order-id', { type: 'string', describe: "Only this order's fills (today's only)" })
      .option('start', { type: 'string', describe: 'With --history: from this date (YYYY-MM-DD, UTC) or RFC 3339 time' })
      .option('end', { type: 'string', describe: 'With --history: until this date or time' })
      .example('$0 executions', "Today's fills")
      .example('$0 executions --order-id 700000000000000001', "One order's fills")
      .example('$0 executions --history --symbol 700.HK --start 2024-01-01 --end 2024-02-01 --json', 'Past Tencent fills as JSON'),
  handler: async (args) => {
    const symbol = args.symbol === undefined ? undefined : symbolFlag(args.symbol);
    if (!args.history) {
      for (const flag of ['start', 'end'] as const) {
        if (args[flag] !== undefined) throw new InvalidInputError(`--${flag} only applies with --history`, `--${flag}`);
      }
      const query = {
        ...(symbol === undefined ? {} : { symbol }),
        ...(args.orderId === undefined ? {} : { orderId: textFlag(args.orderId, '--order-id') }),
      };
      const fills = await withOpenApi(args, (client) => client.todayExecutions(query));
      present(args, fills, printExecutions);
      return;
    }
    if (args.orderId !== undefined) throw new InvalidInputError('--order-id applies to today only: leave out --history', '--order-id');
    const startAt = args.start === undefined ? undefined : timeFlag(args.start, '--start');
    const endAt = args.end === undefined ? undefined : timeFlag(args.end, '--end');
    if (startAt !== undefined && endAt !== undefined && startAt > endAt) throw new InvalidInputError('--start is after --end', '--start');
    const query = {
      ...(symbol === undefined ? {} : { symbol }),
      ...(startAt === undefined ? {} : { startAt }),
      ...(endAt === undefined ? {} : { endAt }),
    };
    const fills = await withOpenApi(args, (client) => client.historyExecutions(query));
    present(args, fills, printExecutions);
  },
};

function printExecutions(fills: readonly Execution[]): void {
  if (fills.length === 0) {
    line('no executions');
    return;
  }
  printTable(
    ['TIME', 'SYMBOL', 'QUANTITY', 'PRICE', 'ORDER ID', 'TRADE ID'],
    fills.map((fill) => [time(fill.tradeDoneAt), fill.symbol, fill.quantity.toFixed(), fill.price.toFixed(), fill.orderId, fill.tradeId]),
  );
}

interface CashFlowArgs extends GlobalFlags {
  readonly start: string;
  readonly end: string;
  readonly type?: string;
  readonly symbol?: string;
  readonly page?: number;
  readonly size?: number;
}

export const cashFlowCommand: CommandModule<object, CashFlowArgs> = {
  command: 'cash-flow',
  describe: 'List the cash and share movements of the account in a time range (newest first, a page at a time)',
  builder: (yargs) =>
    yargs
      .option('start', { type: 'string', demandOption: true, describe: 'From this date (YYYY-MM-DD, UTC) or RFC 3339 time' })
      .option('end', { type: 'string', demandOption: true, describe: 'Until this date or time' })
      .option('type', { type: 'string', describe: `Only this business type: ${CASH_FLOW_TYPES.join(', ')}` })
      .option('symbol', { type: 'string', describe: 'Only movements of this symbol' })
      .option('page', { type: 'number', describe: 'Page, from 1 (default 1)' })
      .option('size', { type: 'number', describe: 'Rows per page, 1–10000 (default 50)' })
      .example('$0 cash-flow --start 2024-01-01 --end 2024-02-01', 'A month of movements')
      .example(
        '$0 cash-flow --start 2024-01-01 --end 2024-02-01 --type cash --symbol 700.HK --json',
        'Cash paid or received for Tencent, as JSON',
      ),
  handler: async (args) => {
    const startAt = timeFlag(args.start, '--start');
    const endAt = timeFlag(args.end, '--end');
    if (startAt > endAt) throw new InvalidInputError('--start is after --end', '--start');
    const size = countFlag(args.size, '--size');
    if (size !== undefined && size > 10_000) throw new InvalidInputError(`--size: at most 10000 (got ${size})`, '--size');
    const query = {
      startAt,
      endAt,
      ...(args.type === undefined ? {} : { businessType: choiceFlag(CASH_FLOW_TYPES, args.type, '--type') }),
      ...(args.symbol === undefined ? {} : { symbol: symbolFlag(args.symbol) }),
      ...(args.page === undefined ? {} : { page: countFlag(args.page, '--page')! }),
      ...(size === undefined ? {} : { size }),
    };
    const flows = await withOpenApi(args, (client) => client.cashFlow(query));
    present(args, flows, () =>
      flows.length === 0
        ? line('no cash flow in this range')
        : printTable(
            ['TIME', 'NAME', 'TYPE', 'DIRECTION', 'AMOUNT', 'CURRENCY', 'SYMBOL', 'DESCRIPTION'],
            flows.map((row) => [
              time(row.businessTime),
              row.name,
              row.businessType,
              row.direction,
              decimal(row.balance),
              row.currency,
              row.symbol ?? '',
              row.description,
            ]),
          ),
    );
  },
};

interface FundArgs extends GlobalFlags {
  readonly symbols?: readonly string[];
}

export const fundPositionsCommand: CommandModule<object, FundArgs> = {
  command: 'fund-positions [symbols..]',
  describe: 'List fund holdings, all or only the given funds (ISIN codes)',
  builder: (yargs) =>
    yargs
      .positional('symbols', { type: 'string', array: true, describe: 'Fund ISINs such as HK0000447943' })
      .example('$0 fund-positions', 'Every fund held')
      .example('$0 fund-positions HK0000447943 --json', 'One fund as JSON'),
  handler: async (args) => {
    const symbols = (args.symbols ?? []).map((text) => {
      const isin = String(text).trim().toUpperCase();
      if (!/^[A-Z]{2}[A-Z0-9]{9}\d$/.test(isin))
        throw new InvalidInputError(`ISIN: "${text}" is not an ISIN (two letters, nine characters, a digit)`, 'ISIN');
      return isin;
    });
    const funds = await withOpenApi(args, (client) => client.fundPositions(symbols));
    present(args, funds, () =>
      funds.length === 0
        ? line('no fund positions')
        : printTable(
            ['ISIN', 'NAME', 'UNITS', 'NAV', 'COST NAV', 'NAV DAY', 'CURRENCY', 'CHANNEL'],
            funds.map((row) => [
              row.symbol,
              row.symbolName,
              decimal(row.holdingUnits),
              decimal(row.currentNetAssetValue),
              decimal(row.costNetAssetValue),
              time(row.netAssetValueDay),
              row.currency,
              row.accountChannel,
            ]),
          ),
    );
  },
};
