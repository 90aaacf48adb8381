// `trader order submit|show|cancel|replace` and `trader orders`: placing, inspecting and changing orders.
import type { Argv, CommandModule } from 'yargs';
import { systemClock } from '../../clock/system-clock.js';
import { InvalidInputError } from '../../domain/errors.js';
import { ORDER_STATUSES } from '../../domain/order-status.js';
import { ORDER_TYPES, OUTSIDE_RTH, SIDES, TIME_IN_FORCE } from '../../domain/order-types.js';
import { MARKETS } from '../../domain/symbol.js';
import type { OrderDetail } from '../../openapi/http/types.js';
import { printTable } from '../output.js';
import { choiceFlag, secondsFlag, symbolFlag, textFlag, timeFlag } from './flags.js';
import { checkReplacement, orderRequestFromFlags, replacementFromFlags, type SubmitFlags } from './order-flags.js';
import { decimal, line, present, printFields, printOrders, time } from './present.js';
import { withOpenApi, type GlobalFlags } from './session.js';
import { checkOutcome, outcomeOf, type SubmitOutcome } from './submit-outcome.js';

function priceOptions<T>(yargs: Argv<T>) {
  return (
    yargs
      .option('price', { type: 'string', describe: 'Limit price (required for LO, ELO, ALO, ODD, LIT, SLO)' })
      .option('trigger-price', { type: 'string', describe: 'Trigger price (LIT, MIT)' })
      .option('limit-offset', { type: 'string', describe: 'Limit offset (TSLPAMT, TSLPPCT)' })
      .option('trailing-amount', { type: 'string', describe: 'Trailing amount (TSLPAMT)' })
      .option('trailing-percent', { type: 'string', describe: 'Trailing percent (TSLPPCT)' })
      // nargs: '--remark -hedge' is told as a value needing '=' (--remark=-hedge), not as the unknown flag -hedge.
      .option('remark', { type: 'string', nargs: 1, describe: 'Free text kept with the order (at most 64 characters)' })
  );
}

/** How long `order submit` waits for the venue to accept or reject the order by default. */
const DEFAULT_WAIT_SECONDS = 10;

function printOutcome({ orderId, status, message }: SubmitOutcome): void {
  line(`submitted order ${orderId}${status === undefined ? '' : `: ${status}`}${message === undefined ? '' : ` (${message})`}`);
}

interface SubmitArgs extends SubmitFlags, GlobalFlags {
  readonly wait?: number;
}

const submit: CommandModule<object, SubmitArgs> = {
  command: 'submit',
  describe:
    'Submit an order and wait for the service to accept or reject it (sent once: on a timeout, check `trader orders` before submitting again)',
  builder: (yargs) =>
    priceOptions(
      yargs
        .option('symbol', { type: 'string', demandOption: true, describe: 'Symbol, e.g. 700.HK' })
        .option('side', { type: 'string', demandOption: true, describe: 'Buy or Sell' })
        .option('type', { type: 'string', demandOption: true, describe: `Order type: ${ORDER_TYPES.join(', ')}` })
        .option('quantity', { type: 'string', demandOption: true, describe: 'Quantity (> 0)' })
        .option('tif', { type: 'string', default: 'Day', describe: `Time in force: ${TIME_IN_FORCE.join(', ')}` })
        .option('expire-date', { type: 'string', describe: 'Last day of a GTD order (YYYY-MM-DD)' })
        .option('outside-rth', { type: 'string', describe: `Trading outside regular hours: ${OUTSIDE_RTH.join(', ')}` })
        .option('wait', {
          type: 'number',
          default: DEFAULT_WAIT_SECONDS,
          describe: 'Seconds to wait for the service to accept or reject the order (0 or --no-wait: print the id at once)',
        }),
    )
      .example('$0 order submit --symbol 700.HK --side Buy --type LO --quantity 200 --price 350', 'Limit buy of 200 Tencent at 350')
      .example('$0 order submit --symbol AAPL.US --side Sell --type MO --quantity 10 --outside-rth ANY_TIME', 'Market sell, any session')
      .example(
        '$0 order submit --symbol 700.HK --side Buy --type LO --quantity 100 --price 340 --tif GTD --expire-date 2025-01-31',
        'Good till date',
      )
      .example('$0 order submit --symbol 700.HK --side Buy --type MO --quantity 100 --json --no-wait', 'Print the order id at once'),
  handler: async (args) => {
    const request = orderRequestFromFlags(args);
    const waitSeconds = secondsFlag(args.wait ?? DEFAULT_WAIT_SECONDS, '--wait');
    const outcome = await withOpenApi(args, async (client): Promise<SubmitOutcome> => {
      const { orderId } = await client.submitOrder(request);
      return waitSeconds === 0 ? { orderId } : outcomeOf(orderId, () => client.orderDetail(orderId), systemClock, waitSeconds * 1000);
    });
    present(args, outcome, printOutcome);
    const warning = checkOutcome(outcome, waitSeconds);
    if (warning !== undefined) process.stderr.write(`warning: ${warning}\n`);
  },
};

interface OrderIdArgs extends GlobalFlags {
  readonly orderId: string;
}

const orderIdPositional = <T>(yargs: Argv<T>) =>
  yargs.positional('orderId', { type: 'string', demandOption: true, describe: 'The order id the service gave' });

const show: CommandModule<object, OrderIdArgs> = {
  command: 'show <orderId>',
  describe: 'Show one order with its status history and charges',
  builder: (yargs) => orderIdPositional(yargs).example('$0 order show 706388312699592704', 'Details of an order'),
  handler: async (args) => {
    const orderId = textFlag(args.orderId, 'ORDER_ID');
    const detail = await withOpenApi(args, (client) => client.orderDetail(orderId));
    present(args, detail, printDetail);
  },
};

function printDetail(detail: OrderDetail): void {
  printFields([
    ['order id', detail.orderId],
    ['status', detail.status],
    ['symbol', `${detail.symbol} ${detail.stockName}`.trim()],
    ['side / type', `${detail.side} ${detail.orderType}`],
    ['quantity', decimal(detail.quantity)],
    ['price', decimal(detail.price)],
    ['trigger price', decimal(detail.triggerPrice)],
    ['filled', `${decimal(detail.executedQuantity)} at ${decimal(detail.executedPrice) || '-'}`],
    ['time in force', `${detail.timeInForce}${detail.expireDate === undefined ? '' : ` until ${detail.expireDate}`}`],
    ['outside RTH', detail.outsideRth ?? ''],
    ['currency', detail.currency],
    ['remark', detail.remark],
    ['message', detail.message],
    ['submitted', time(detail.submittedAt)],
    ['updated', time(detail.updatedAt)],
    ['charges', detail.chargeDetail === undefined ? '' : `${decimal(detail.chargeDetail.totalAmount)} ${detail.chargeDetail.currency}`],
  ]);
  if (detail.history.length === 0) return;
  line('');
  printTable(
    ['TIME', 'STATUS', 'QUANTITY', 'PRICE', 'MESSAGE'],
    detail.history.map((entry) => [time(entry.time), entry.status, decimal(entry.quantity), decimal(entry.price), entry.message]),
  );
}

const cancel: CommandModule<object, OrderIdArgs> = {
  command: 'cancel <orderId>',
  describe: 'Ask to cancel an order (sent once; `trader order show` tells whether it went through)',
  builder: (yargs) => orderIdPositional(yargs).example('$0 order cancel 706388312699592704', 'Cancel an order'),
  handler: async (args) => {
    const orderId = textFlag(args.orderId, 'ORDER_ID');
    await withOpenApi(args, (client) => client.cancelOrder(orderId));
    present(args, { orderId, cancelRequested: true }, () => line(`cancel requested for order ${orderId}`));
  },
};

interface ReplaceArgs extends OrderIdArgs {
  readonly quantity: string;
  readonly price?: string;
  readonly triggerPrice?: string;
  readonly limitOffset?: string;
  readonly trailingAmount?: string;
  readonly trailingPercent?: string;
  readonly remark?: string;
}

const replace: CommandModule<object, ReplaceArgs> = {
  command: 'replace <orderId>',
  describe: 'Change the quantity (and price) of an open order, checked first against its status and order type',
  builder: (yargs) =>
    priceOptions(
      orderIdPositional(yargs).option('quantity', { type: 'string', demandOption: true, describe: 'New total quantity (> 0)' }),
    ).example('$0 order replace 706388312699592704 --quantity 100 --price 351', 'Reduce to 100 at 351'),
  handler: async (args) => {
    const orderId = textFlag(args.orderId, 'ORDER_ID');
    const replacement = replacementFromFlags(args);
    await withOpenApi(args, async (client) => {
      checkReplacement(replacement, await client.orderDetail(orderId));
      await client.replaceOrder(orderId, replacement);
    });
    present(args, { orderId, replaceRequested: true }, () => line(`replace requested for order ${orderId}`));
  },
};

export const orderCommand: CommandModule = {
  command: 'order <action>',
  describe: 'Submit, show, cancel or replace one order',
  builder: (yargs) =>
    yargs
      .command(submit)
      .command(show)
      .command(cancel)
      .command(replace)
      .demandCommand(1, 'Name an action: submit, show, cancel or replace.')
      .example('$0 order submit --symbol 700.HK --side Buy --type LO --quantity 200 --price 350', 'Limit buy of 200 Tencent at 350')
      .example('$0 order show 706388312699592704', 'That order with its status history')
      .example('$0 order cancel 706388312699592704', 'Ask to cancel it'),
  handler: () => undefined,
};

interface OrdersArgs extends GlobalFlags {
  readonly history?: boolean;
  readonly watch?: boolean;
  readonly symbol?: string;
  readonly status?: readonly string[];
  readonly side?: string;
  readonly market?: string;
  readonly start?: string;
  readonly end?: string;
}

export const ordersCommand: CommandModule<object, OrdersArgs> = {
  command: 'orders',
  describe: "List today's orders, or past orders with --history",
  builder: (yargs) =>
    yargs
      .option('history', { type: 'boolean', describe: 'Orders of past days instead of today' })
      .option('watch', { type: 'boolean', describe: 'Stream order updates from the trade connection as JSON lines until Ctrl-C' })
      .option('symbol', { type: 'string', describe: 'Only this symbol' })
      .option('status', { type: 'string', array: true, describe: `Only these statuses (repeatable): ${ORDER_STATUSES.join(', ')}` })
      .option('side', { type: 'string', describe: 'Only Buy or Sell' })
      .option('market', { type: 'string', describe: `Only this market: ${MARKETS.join(', ')}` })
      .option('start', { type: 'string', describe: 'With --history: from this date (YYYY-MM-DD, UTC) or RFC 3339 time' })
      .option('end', { type: 'string', describe: 'With --history: until this date or time' })
      .example('$0 orders', "Today's orders")
      .example('$0 orders --status NewStatus --status PartialFilledStatus', 'Open orders of today')
      .example('$0 orders --history --symbol 700.HK --start 2024-01-01 --end 2024-02-01', 'Past Tencent orders')
      .example('$0 orders --watch', 'Every order change of the account, one JSON object per line'),
  handler: async (args) => {
    if (args.watch) {
      for (const flag of ['history', 'symbol', 'status', 'side', 'market', 'start', 'end'] as const) {
        if (args[flag] !== undefined) throw new InvalidInputError(`--${flag} cannot be combined with --watch`, `--${flag}`);
      }
      // Loaded on demand: the socket stack is only needed when watching.
      const { watchOrderUpdates } = await import('../market/watch-orders.js');
      await watchOrderUpdates(args);
      return;
    }
    const filter = {
      ...(args.symbol === undefined ? {} : { symbol: symbolFlag(args.symbol) }),
      ...(args.status === undefined ? {} : { statuses: args.status.map((status) => choiceFlag(ORDER_STATUSES, status, '--status')) }),
      ...(args.side === undefined ? {} : { side: choiceFlag(SIDES, args.side, '--side') }),
      ...(args.market === undefined ? {} : { market: choiceFlag(MARKETS, args.market, '--market') }),
    };
    if (!args.history) {
      for (const flag of ['start', 'end'] as const) {
        if (args[flag] !== undefined) throw new InvalidInputError(`--${flag} only applies with --history`, `--${flag}`);
      }
      const orders = await withOpenApi(args, (client) => client.todayOrders(filter));
      present(args, orders, printOrders);
      return;
    }
    const query = {
      ...filter,
      ...(args.start === undefined ? {} : { startAt: timeFlag(args.start, '--start') }),
      ...(args.end === undefined ? {} : { endAt: timeFlag(args.end, '--end') }),
    };
    const history = await withOpenApi(args, (client) => client.historyOrders(query));
    present(args, history, () => {
      printOrders(history.orders);
      if (history.hasMore) line('(more orders exist: narrow --start/--end)');
    });
  },
};
