// Account figures over HTTP: balances per currency, stock positions, the buy-limit estimate and margin
// ratios, all straight from the venue's books so they agree with what its matching engine allows.
import { z } from 'zod';
import type { AccountBalance } from '../../../domain/account.js';
import { ORDER_TYPES, SIDES } from '../../../domain/order-types.js';
import { choice, optionalPrice, securitySymbol } from '../../../openapi/http/wire.js';
import type { Venue } from '../../venue/index.js';
import { wireDecimal } from '../order-wire.js';
import { readQuery, type Route } from './router.js';
import { venueCall } from './service-failure.js';

const buyLimitQuery = z.object({
  symbol: securitySymbol,
  order_type: choice(ORDER_TYPES),
  side: choice(SIDES),
  price: optionalPrice,
});

function balanceJson(balance: AccountBalance): Record<string, unknown> {
  return {
    total_cash: wireDecimal(balance.totalCash),
    max_finance_amount: wireDecimal(balance.maxFinanceAmount),
    remaining_finance_amount: wireDecimal(balance.remainingFinanceAmount),
    // The SDK reads the risk level as a string.
    risk_level: String(balance.riskLevel),
    margin_call: wireDecimal(balance.marginCall),
    currency: balance.currency,
    net_assets: wireDecimal(balance.netAssets),
    init_margin: wireDecimal(balance.initMargin),
    maintenance_margin: wireDecimal(balance.maintenanceMargin),
    buy_power: wireDecimal(balance.buyPower),
    cash_infos: balance.cashInfos.map((cash) => ({
      withdraw_cash: wireDecimal(cash.withdrawCash),
      available_cash: wireDecimal(cash.availableCash),
      frozen_cash: wireDecimal(cash.frozenCash),
      settling_cash: wireDecimal(cash.settlingCash),
      currency: cash.currency,
    })),
    frozen_transaction_fees: balance.frozenTransactionFees.map((fee) => ({
      currency: fee.currency,
      frozen_transaction_fee: wireDecimal(fee.frozenTransactionFee),
    })),
  };
}

export function accountRoutes(venue: Venue): Route[] {
  return [
    {
      method: 'GET',
      pattern: '/v1/asset/account',
      handler: (request) => {
        const currency = request.query.get('currency') ?? '';
        return { list: venue.accountBalance(currency === '' ? undefined : currency).map(balanceJson) };
      },
    },
    {
      method: 'GET',
      pattern: '/v1/asset/stock',
      handler: (request) => {
        const symbols = readQuery(request, z.object({ symbol: z.array(securitySymbol).default([]) }), ['symbol']).symbol;
        const positions = venue.positions(symbols);
        return {
          list: [
            {
              account_channel: 'lb',
              stock_info: positions.map((position) => ({
                symbol: position.symbol,
                symbol_name: position.symbolName,
                quantity: wireDecimal(position.quantity),
                available_quantity: wireDecimal(position.availableQuantity),
                currency: position.currency,
                cost_price: wireDecimal(position.costPrice),
                market: position.market,
                init_quantity: position.initQuantity === undefined ? '' : wireDecimal(position.initQuantity),
              })),
            },
          ],
        };
      },
    },
    {
      method: 'GET',
      pattern: '/v1/trade/estimate/buy_limit',
      handler: (request) => {
        const query = readQuery(request, buyLimitQuery);
        const limit = venueCall(() =>
          venue.buyLimit({
            symbol: query.symbol,
            orderType: query.order_type,
            side: query.side,
            ...(query.price === undefined ? {} : { price: query.price }),
          }),
        );
        return { cash_max_qty: wireDecimal(limit.cashMaxQty), margin_max_qty: wireDecimal(limit.marginMaxQty) };
      },
    },
    {
      method: 'GET',
      pattern: '/v1/risk/margin-ratio',
      handler: (request) => {
        const ratio = venue.marginRatio(readQuery(request, z.object({ symbol: securitySymbol })).symbol);
        return { im_factor: wireDecimal(ratio.imFactor), mm_factor: wireDecimal(ratio.mmFactor), fm_factor: wireDecimal(ratio.fmFactor) };
      },
    },
  ];
}
