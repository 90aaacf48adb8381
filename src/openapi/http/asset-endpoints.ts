// Account figures: balance, stock positions, buy-limit estimate, margin ratio (PROTOCOL.md §4; request shapes
// from the official SDK, rust/src/trade/context.rs and requests/estimate_max_purchase_quantity.rs).
import { z } from 'zod';
import type { AccountBalance, BuyLimit, MarginRatio } from '../../domain/account.js';
import type { BrokerPosition } from '../../domain/position.js';
import type { SecuritySymbol } from '../../domain/symbol.js';
import type { Fixed } from '../../domain/fixed.js';
import { toWire } from '../../domain/decimal.js';
import { Money } from '../../domain/money.js';
import type { BuyLimitQuery, ReadOptions } from '../../execution/broker.js';
import type { Transport } from './transport.js';
import {
  fixed,
  integer,
  optionalQuantity,
  parseWire,
  priceEmptyIsZero,
  quantity,
  quantityEmptyIsZero,
  requiredText,
  securitySymbol,
  text,
} from './wire.js';

const cashInfo = z.object({
  withdraw_cash: fixed,
  available_cash: fixed,
  frozen_cash: fixed,
  settling_cash: fixed,
  currency: requiredText,
});

const balance = z.object({
  total_cash: fixed,
  max_finance_amount: fixed,
  remaining_finance_amount: fixed,
  // Older accounts send the level as a string ("1"), and some none at all.
  risk_level: integer.optional(),
  margin_call: fixed,
  currency: requiredText,
  net_assets: fixed,
  init_margin: fixed,
  maintenance_margin: fixed,
  buy_power: fixed,
  cash_infos: z.array(cashInfo).default([]),
  frozen_transaction_fees: z.array(z.object({ currency: requiredText, frozen_transaction_fee: fixed })).default([]),
});

export async function accountBalance(
  transport: Transport,
  currency?: string,
  options: ReadOptions = {},
): Promise<readonly AccountBalance[]> {
  const data = await transport.call({ method: 'GET', path: '/v1/asset/account', query: { currency }, ...options });
  const { list } = parseWire(z.object({ list: z.array(balance) }), data, 'GET /v1/asset/account');
  return list.map((row) => {
    const money = (amount: Fixed): Money => Money.of(amount, row.currency);
    return {
      currency: row.currency,
      totalCash: money(row.total_cash),
      maxFinanceAmount: money(row.max_finance_amount),
      remainingFinanceAmount: money(row.remaining_finance_amount),
      riskLevel: row.risk_level ?? 0,
      marginCall: money(row.margin_call),
      netAssets: money(row.net_assets),
      initMargin: money(row.init_margin),
      maintenanceMargin: money(row.maintenance_margin),
      buyPower: money(row.buy_power),
      cashInfos: row.cash_infos.map((cash) => ({
        currency: cash.currency,
        withdrawCash: Money.of(cash.withdraw_cash, cash.currency),
        availableCash: Money.of(cash.available_cash, cash.currency),
        frozenCash: Money.of(cash.frozen_cash, cash.currency),
        settlingCash: Money.of(cash.settling_cash, cash.currency),
      })),
      frozenTransactionFees: row.frozen_transaction_fees.map((fee) => ({
        currency: fee.currency,
        frozenTransactionFee: Money.of(fee.frozen_transaction_fee, fee.currency),
      })),
    };
  });
}

const stockInfo = z.object({
  symbol: securitySymbol,
  symbol_name: text,
  quantity: quantityEmptyIsZero,
  available_quantity: quantityEmptyIsZero,
  currency: text,
  cost_price: priceEmptyIsZero,
  market: text,
  init_quantity: optionalQuantity,
});

const channels = z.object({
  list: z.array(z.object({ account_channel: text, stock_info: z.array(stockInfo).default([]) })),
});

export async function positions(transport: Transport, symbols: readonly SecuritySymbol[] = []): Promise<readonly BrokerPosition[]> {
  const data = await transport.call({ method: 'GET', path: '/v1/asset/stock', query: { symbol: symbols } });
  const { list } = parseWire(channels, data, 'GET /v1/asset/stock');
  return list.flatMap((channel) =>
    channel.stock_info.map((row) => ({
      symbol: row.symbol,
      symbolName: row.symbol_name,
      quantity: row.quantity,
      availableQuantity: row.available_quantity,
      initQuantity: row.init_quantity,
      costPrice: row.cost_price,
      currency: row.currency,
      market: row.market,
      accountChannel: channel.account_channel,
    })),
  );
}

export async function estimateBuyLimit(transport: Transport, query: BuyLimitQuery, options: ReadOptions = {}): Promise<BuyLimit> {
  const data = await transport.call({
    ...options,
    method: 'GET',
    path: '/v1/trade/estimate/buy_limit',
    query: {
      symbol: query.symbol,
      order_type: query.orderType,
      price: query.price === undefined ? undefined : toWire(query.price),
      side: query.side,
      currency: query.currency,
      fractional_shares: query.fractionalShares ?? false,
    },
  });
  const row = parseWire(z.object({ cash_max_qty: quantity, margin_max_qty: quantity }), data, 'GET /v1/trade/estimate/buy_limit');
  return { cashMaxQty: row.cash_max_qty, marginMaxQty: row.margin_max_qty };
}

export async function marginRatio(transport: Transport, symbol: SecuritySymbol, options: ReadOptions = {}): Promise<MarginRatio> {
  const data = await transport.call({ method: 'GET', path: '/v1/risk/margin-ratio', query: { symbol }, ...options });
  const row = parseWire(z.object({ im_factor: fixed, mm_factor: fixed, fm_factor: fixed }), data, 'GET /v1/risk/margin-ratio');
  return { imFactor: row.im_factor, mmFactor: row.mm_factor, fmFactor: row.fm_factor };
}
