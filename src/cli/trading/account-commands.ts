// `trader account`, `trader positions`, `trader buy-limit`, `trader margin-ratio`: what the account holds and may do.
import type { CommandModule } from 'yargs';
import { ORDER_TYPES, SIDES } from '../../domain/order-types.js';
import { printTable } from '../output.js';
import { choiceFlag, optionalPriceFlag, symbolFlag } from './flags.js';
import { decimal, line, present } from './present.js';
import { withOpenApi, type GlobalFlags } from './session.js';

interface AccountArgs extends GlobalFlags {
  readonly currency?: string;
}

export const accountCommand: CommandModule<object, AccountArgs> = {
  command: 'account',
  describe: 'Show the account balance: cash, buy power, margin (per settlement currency)',
  builder: (yargs) =>
    yargs
      .option('currency', { type: 'string', describe: 'Report in this currency (HKD, USD, CNH, …)' })
      .example('$0 account', 'Balances in every currency the account reports')
      .example('$0 account --currency HKD --json', 'The HKD balance as JSON'),
  handler: async (args) => {
    const balances = await withOpenApi(args, (client) => client.accountBalance(args.currency?.toUpperCase()));
    present(args, balances, () => {
      printTable(
        [
          'CURRENCY',
          'TOTAL CASH',
          'NET ASSETS',
          'BUY POWER',
          'MAX FINANCE',
          'REMAINING FINANCE',
          'INIT MARGIN',
          'MAINT MARGIN',
          'MARGIN CALL',
          'RISK',
        ],
        balances.map((row) => [
          row.currency,
          decimal(row.totalCash),
          decimal(row.netAssets),
          decimal(row.buyPower),
          decimal(row.maxFinanceAmount),
          decimal(row.remainingFinanceAmount),
          decimal(row.initMargin),
          decimal(row.maintenanceMargin),
          decimal(row.marginCall),
          row.riskLevel,
        ]),
      );
      const cash = balances.flatMap((row) => row.cashInfos);
      if (cash.length === 0) return;
      line('');
      printTable(
        ['CASH', 'AVAILABLE', 'WITHDRAWABLE', 'FROZEN', 'SETTLING'],
        cash.map((info) => [
          info.currency,
          decimal(info.availableCash),
          decimal(info.withdrawCash),
          decimal(info.frozenCash),
          decimal(info.settlingCash),
        ]),
      );
    });
  },
};

interface PositionsArgs extends GlobalFlags {
  readonly symbols?: readonly string[];
}

export const positionsCommand: CommandModule<object, PositionsArgs> = {
  command: 'positions [symbols..]',
  describe: 'List stock positions, all or only the given symbols',
  builder: (yargs) =>
    yargs
      .positional('symbols', { type: 'string', array: true, describe: 'Symbols such as 700.HK AAPL.US' })
      .example('$0 positions', 'Every position')
      .example('$0 positions 700.HK AAPL.US', 'Two positions'),
  handler: async (args) => {
    const symbols = (args.symbols ?? []).map((text) => symbolFlag(String(text), 'SYMBOL'));
    const positions = await withOpenApi(args, (client) => client.positions(symbols));
    present(args, positions, () => {
      if (positions.length === 0) return line('no positions');
      printTable(
        ['SYMBOL', 'NAME', 'QUANTITY', 'AVAILABLE', 'COST PRICE', 'CURRENCY', 'CHANNEL'],
        positions.map((row) => [
          row.symbol,
          row.symbolName,
          decimal(row.quantity),
          decimal(row.availableQuantity),
          decimal(row.costPrice),
          row.currency,
          row.accountChannel,
        ]),
      );
    });
  },
};

interface BuyLimitArgs extends GlobalFlags {
  readonly symbol: string;
  readonly type: string;
  readonly side: string;
  readonly price?: string;
  readonly currency?: string;
}

export const buyLimitCommand: CommandModule<object, BuyLimitArgs> = {
  command: 'buy-limit',
  describe: 'Estimate the most one order may buy (or sell short), with cash and with margin',
  builder: (yargs) =>
    yargs
      .option('symbol', { type: 'string', demandOption: true, describe: 'Symbol, e.g. 700.HK' })
      .option('type', { type: 'string', demandOption: true, describe: `Order type: ${ORDER_TYPES.join(', ')}` })
      .option('side', { type: 'string', demandOption: true, describe: 'Buy or Sell' })
      .option('price', { type: 'string', describe: 'Limit price the estimate assumes' })
      .option('currency', { type: 'string', describe: 'Settlement currency' })
      .example('$0 buy-limit --symbol 700.HK --type LO --side Buy --price 350', 'How many 700.HK at 350'),
  handler: async (args) => {
    const query = {
      symbol: symbolFlag(args.symbol),
      orderType: choiceFlag(ORDER_TYPES, args.type, '--type'),
      side: choiceFlag(SIDES, args.side, '--side'),
      ...(args.price === undefined ? {} : { price: optionalPriceFlag(args.price, '--price')! }),
      ...(args.currency === undefined ? {} : { currency: args.currency.toUpperCase() }),
    };
    const limit = await withOpenApi(args, (client) => client.estimateBuyLimit(query));
    present(args, limit, () =>
      printTable(['SYMBOL', 'CASH MAX QTY', 'MARGIN MAX QTY'], [[query.symbol, decimal(limit.cashMaxQty), decimal(limit.marginMaxQty)]]),
    );
  },
};

interface MarginRatioArgs extends GlobalFlags {
  readonly symbol: string;
}

export const marginRatioCommand: CommandModule<object, MarginRatioArgs> = {
  command: 'margin-ratio <symbol>',
  describe: 'Show the initial, maintenance and forced-liquidation margin factors of a symbol',
  builder: (yargs) =>
    yargs
      .positional('symbol', { type: 'string', demandOption: true, describe: 'Symbol, e.g. 700.HK' })
      .example('$0 margin-ratio 700.HK', 'Margin factors of Tencent'),
  handler: async (args) => {
    const symbol = symbolFlag(args.symbol, 'SYMBOL');
    const ratio = await withOpenApi(args, (client) => client.marginRatio(symbol));
    present(args, ratio, () =>
      printTable(
        ['SYMBOL', 'INITIAL', 'MAINTENANCE', 'FORCED LIQUIDATION'],
        [[symbol, decimal(ratio.imFactor), decimal(ratio.mmFactor), decimal(ratio.fmFactor)]],
      ),
    );
  },
};
