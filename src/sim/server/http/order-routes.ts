// Orders over HTTP: submit, replace, cancel, submit-by-id, detail, today's and history lists, and executions
// (today's, and history: a range, 90 days back by default, without the current market day).
// Bodies are read with the client's own wire schemas (so both sides agree on every field); a rejected
// submission still gets an order id: its status and message say why, as the venue reports it.
import { z } from 'zod';
import { ORDER_STATUSES } from '../../../domain/order-status.js';
import { ORDER_TYPES, OUTSIDE_RTH, SIDES, TIME_IN_FORCE } from '../../../domain/order-types.js';
import {
  choice,
  optionalChoice,
  optionalFixed,
  optionalPrice,
  quantity,
  requiredText,
  securitySymbol,
  text,
} from '../../../openapi/http/wire.js';
import type { Clock } from '../../../domain/clock.js';
import type { Fill } from '../../../domain/fill.js';
import { marketOf, type Market, type SecuritySymbol } from '../../../domain/symbol.js';
import type { Venue, VenueOrderFilter } from '../../venue/index.js';
import { MarketDays } from '../../venue/market-days.js';
import { orderDetailJson, orderJson, wireDecimal } from '../order-wire.js';
import { readBody, readQuery, type Route } from './router.js';
import { venueCall } from './service-failure.js';

const submitBody = z.object({
  symbol: securitySymbol,
  order_type: choice(ORDER_TYPES),
  side: choice(SIDES),
  submitted_quantity: quantity,
  time_in_force: choice(TIME_IN_FORCE),
  submitted_price: optionalPrice,
  trigger_price: optionalPrice,
  limit_offset: optionalPrice,
  trailing_amount: optionalPrice,
  trailing_percent: optionalFixed,
  expire_date: text,
  outside_rth: optionalChoice(OUTSIDE_RTH),
  remark: text,
});

const replaceBody = z.object({
  order_id: requiredText,
  quantity: quantity,
  price: optionalPrice,
  trigger_price: optionalPrice,
  limit_offset: optionalPrice,
  trailing_amount: optionalPrice,
  trailing_percent: optionalFixed,
  remark: z.string().optional(),
});

const orderIdQuery = z.object({ order_id: requiredText });
const unixSeconds = z
  .string()
  .regex(/^\d+(\.\d+)?$/, 'must be unix seconds')
  .transform((value) => Number(value) * 1000)
  .optional();
const executionQuery = z.object({
  symbol: securitySymbol.optional(),
  order_id: z.string().optional(),
  start_at: unixSeconds,
  end_at: unixSeconds,
});
const listQuery = z.object({
  symbol: securitySymbol.optional(),
  status: z.array(choice(ORDER_STATUSES)).optional(),
  side: choice(SIDES).optional(),
  market: z.string().optional(),
  order_id: z.string().optional(),
  start_at: unixSeconds,
  end_at: unixSeconds,
});

function filterOf(query: z.output<typeof listQuery>): VenueOrderFilter {
  return {
    ...(query.symbol === undefined ? {} : { symbol: query.symbol }),
    ...(query.status === undefined ? {} : { statuses: query.status }),
    ...(query.side === undefined ? {} : { side: query.side }),
    ...(query.market === undefined || query.market === '' ? {} : { market: query.market }),
    ...(query.order_id === undefined || query.order_id === '' ? {} : { orderId: query.order_id }),
    ...(query.start_at === undefined ? {} : { since: query.start_at }),
    ...(query.end_at === undefined ? {} : { until: query.end_at }),
  };
}

/** History without a start looks back this far (the service's documented default window). */
const HISTORY_WINDOW_MS = 90 * 86_400_000;

/** `clock`: the market time (history excludes the market day it is in, as the service's does). */
export function orderRoutes(venue: Venue, clock: Clock): Route[] {
  const calendars = new Map<Market, MarketDays>();
  const marketDays = (market: Market): MarketDays => {
    let days = calendars.get(market);
    if (days === undefined) calendars.set(market, (days = new MarketDays(market)));
    return days;
  };
  /** Whether a fill happened on its market's current day. */
  const isToday = (fill: Fill): boolean => {
    const days = marketDays(marketOf(fill.symbol));
    return days.dayKey(fill.time) === days.dayKey(clock.now());
  };
  return [
    {
      method: 'POST',
      pattern: '/v1/trade/order',
      handler: (request) => {
        const body = readBody(request, submitBody);
        const order = venue.submit({
          symbol: body.symbol,
          side: body.side,
          orderType: body.order_type,
          quantity: body.submitted_quantity,
          timeInForce: body.time_in_force,
          ...(body.submitted_price === undefined ? {} : { price: body.submitted_price }),
          ...(body.trigger_price === undefined ? {} : { triggerPrice: body.trigger_price }),
          ...(body.limit_offset === undefined ? {} : { limitOffset: body.limit_offset }),
          ...(body.trailing_amount === undefined ? {} : { trailingAmount: body.trailing_amount }),
          ...(body.trailing_percent === undefined ? {} : { trailingPercent: body.trailing_percent }),
          ...(body.expire_date === '' ? {} : { expireDate: body.expire_date }),
          ...(body.outside_rth === undefined ? {} : { outsideRth: body.outside_rth }),
          ...(body.remark === '' ? {} : { remark: body.remark }),
        });
        return { order_id: order.orderId };
      },
    },
    {
      method: 'PUT',
      pattern: '/v1/trade/order',
      handler: (request) => {
        const body = readBody(request, replaceBody);
        venueCall(() =>
          venue.replace(body.order_id, {
            quantity: body.quantity,
            ...(body.price === undefined ? {} : { price: body.price }),
            ...(body.trigger_price === undefined ? {} : { triggerPrice: body.trigger_price }),
            ...(body.limit_offset === undefined ? {} : { limitOffset: body.limit_offset }),
            ...(body.trailing_amount === undefined ? {} : { trailingAmount: body.trailing_amount }),
            ...(body.trailing_percent === undefined ? {} : { trailingPercent: body.trailing_percent }),
            ...(body.remark === undefined ? {} : { remark: body.remark }),
          }),
        );
        return {};
      },
    },
    {
      method: 'DELETE',
      pattern: '/v1/trade/order',
      handler: (request) => {
        const { order_id } = readQuery(request, orderIdQuery);
        venueCall(() => venue.cancel(order_id));
        return {};
      },
    },
    {
      method: 'POST',
      pattern: '/v1/trade/order/submit',
      handler: (request) => orderJson(venueCall(() => venue.order(readBody(request, orderIdQuery).order_id))),
    },
    {
      method: 'GET',
      pattern: '/v1/trade/order',
      handler: (request) => orderDetailJson(venueCall(() => venue.order(readQuery(request, orderIdQuery).order_id))),
    },
    {
      method: 'GET',
      pattern: '/v1/trade/order/today',
      handler: (request) => ({
        orders: venue.orders({ ...filterOf(readQuery(request, listQuery, ['status'])), today: true }).map(orderJson),
      }),
    },
    {
      method: 'GET',
      pattern: '/v1/trade/order/history',
      handler: (request) => ({ has_more: false, orders: venue.orders(filterOf(readQuery(request, listQuery, ['status']))).map(orderJson) }),
    },
    {
      method: 'GET',
      pattern: '/v1/trade/execution/today',
      handler: (request) => {
        const query = readQuery(request, executionQuery);
        return executionsJson(venue.executions(fillFilter(query)).filter((fill) => isToday(fill)));
      },
    },
    {
      method: 'GET',
      pattern: '/v1/trade/execution/history',
      handler: (request) => {
        const query = readQuery(request, executionQuery);
        const since = query.start_at ?? clock.now() - HISTORY_WINDOW_MS;
        const until = query.end_at ?? clock.now();
        return executionsJson(
          venue.executions(fillFilter(query)).filter((fill) => fill.time >= since && fill.time <= until && !isToday(fill)),
        );
      },
    },
  ];
}

function fillFilter(query: z.output<typeof executionQuery>): { orderId?: string; symbol?: SecuritySymbol } {
  return {
    ...(query.order_id === undefined || query.order_id === '' ? {} : { orderId: query.order_id }),
    ...(query.symbol === undefined ? {} : { symbol: query.symbol }),
  };
}

function executionsJson(fills: readonly Fill[]): { trades: Record<string, string>[] } {
  return {
    trades: fills.map((fill) => ({
      order_id: fill.orderId,
      trade_id: fill.fillId,
      symbol: fill.symbol,
      trade_done_at: String(Math.floor(fill.time / 1000)),
      quantity: wireDecimal(fill.quantity),
      price: wireDecimal(fill.price),
    })),
  };
}
