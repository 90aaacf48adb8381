// The risk engine: pure checks of one order request against a snapshot of fresh figures and the configured
// limits. Orders that only reduce a position skip the buying-power, margin, position and kill-switch checks.
import {
  Money,
  currencyOf,
  marketOf,
  toWire,
  type AccountBalance,
  type BuyLimit,
  type MarginRatio,
  type OrderRequest,
  type Price,
  Quantity,
} from '../domain/index.js';
import type { RiskLimits } from './config.js';
import { APPROVED, deny, type RiskDecision } from './decision.js';
import type { EquityWatch } from './equity-watch.js';
import { openingOf, signedQuantity } from './exposure.js';
import { describeSessions, inAllowedSession } from './sessions.js';

export interface RiskSnapshot {
  /** Clock time of the decision, epoch ms. */
  readonly time: number;
  /** Current signed position in the order's symbol. */
  readonly position: Quantity;
  /** Signed quantity still open in working orders of the symbol. */
  readonly pendingQuantity: Quantity;
  /** The order's limit price, else the last traded price or close; undefined when none is known. */
  readonly referencePrice: Price | undefined;
  /** Fresh broker figures; undefined when not fetched (reducing orders) or when the fetch failed. */
  readonly account: AccountBalance | undefined;
  /** The broker's buy-limit estimate for the order's side: for a sell, how many it lets you sell. */
  readonly buyLimit: BuyLimit | undefined;
  readonly marginRatio: MarginRatio | undefined;
  /**
   * Whether the account may sell short, when known (a simulated venue's setting; the service does not say):
   * it tells why the broker lends no shares, no margin left or no short selling at all.
   */
  readonly shortSelling?: boolean;
  /** Why the figures could not be fetched, when they could not. */
  readonly figuresError?: FiguresError;
  /** Times of orders submitted during the last minute. */
  readonly recentOrderTimes: readonly number[];
  readonly equity: EquityWatch;
}

/** A failed fetch of the broker's figures: the cause, and whether the broker said it does not know the symbol. */
export interface FiguresError {
  readonly message: string;
  readonly unknownSymbol: boolean;
}

const MINUTE_MS = 60_000;

export function evaluateRisk(order: OrderRequest, snapshot: RiskSnapshot, limits: RiskLimits): RiskDecision {
  const { quantity, symbol } = order;
  if (!quantity.isPositive())
    return deny('INVALID_QUANTITY', `quantity must be positive, got ${toWire(quantity)}`, { quantity: quantity.toString() });
  if (limits.allowedSymbols !== undefined && !limits.allowedSymbols.includes(symbol)) {
    return deny('SYMBOL_NOT_ALLOWED', `${symbol} is not in allowedSymbols (${limits.allowedSymbols.join(', ')})`, { symbol });
  }
  if (snapshot.figuresError?.unknownSymbol === true)
    return deny('UNKNOWN_SYMBOL', `the broker does not know ${symbol}: ${snapshot.figuresError.message}`, { symbol });
  if (limits.allowedSessions !== undefined && !inAllowedSession(snapshot.time, marketOf(symbol), limits.allowedSessions)) {
    return deny(
      'OUTSIDE_ALLOWED_SESSION',
      `${new Date(snapshot.time).toISOString()} is outside the allowed sessions (${describeSessions(limits.allowedSessions)}) of ${marketOf(symbol)}`,
      {
        time: String(snapshot.time),
      },
    );
  }
  if (limits.maxOrdersPerMinute !== undefined) {
    const recent = countSince(snapshot.recentOrderTimes, snapshot.time - MINUTE_MS);
    if (recent >= limits.maxOrdersPerMinute) {
      return deny('ORDER_RATE_EXCEEDED', `${recent} orders in the last minute, the limit is ${limits.maxOrdersPerMinute}`, {
        ordersLastMinute: String(recent),
        limit: String(limits.maxOrdersPerMinute),
      });
    }
  }
  const price = snapshot.referencePrice;
  let notional: Money | undefined;
  if (limits.maxOrderNotional !== undefined) {
    if (price === undefined) return noPrice(order);
    notional = Money.notional(quantity, price, currencyOf(marketOf(symbol)));
    if (notional.gt(limits.maxOrderNotional)) {
      return deny(
        'EXCEEDS_MAX_NOTIONAL',
        `order notional ${toWire(notional)} exceeds maxOrderNotional ${toWire(limits.maxOrderNotional)}`,
        {
          notional: toWire(notional),
          limit: toWire(limits.maxOrderNotional),
          price: toWire(price),
        },
      );
    }
  }
  const opening = openingOf(snapshot.position, order.side, quantity);
  if (opening.isZero()) return APPROVED;
  // The whole order opens (the usual buy): its notional is the one already computed.
  return checkOpening(order, opening, opening === quantity ? notional : undefined, snapshot, limits);
}

/** How many of the times are after `after` (a count, no filtered copy). */
function countSince(times: readonly number[], after: number): number {
  let count = 0;
  for (let index = 0; index < times.length; index += 1) if (times[index]! > after) count += 1;
  return count;
}

function checkOpening(
  order: OrderRequest,
  opening: Quantity,
  openingNotional: Money | undefined,
  snapshot: RiskSnapshot,
  limits: RiskLimits,
): RiskDecision {
  const { dailyTrip, drawdownTrip } = snapshot.equity;
  if (dailyTrip !== undefined) {
    return deny(
      'DAILY_LOSS_HALT',
      `daily loss ${toWire(dailyTrip.loss)} reached dailyLossLimit ${toWire(dailyTrip.limit)}: new exposure halted for the day`,
      {
        loss: toWire(dailyTrip.loss),
        limit: toWire(dailyTrip.limit),
        dayStart: toWire(dailyTrip.reference),
        netAssets: toWire(dailyTrip.netAssets),
      },
    );
  }
  if (drawdownTrip !== undefined) {
    return deny(
      'DRAWDOWN_HALT',
      `drawdown ${toWire(drawdownTrip.loss)} reached maxDrawdown ${toWire(drawdownTrip.limit)}: new exposure halted`,
      {
        drawdown: toWire(drawdownTrip.loss),
        limit: toWire(drawdownTrip.limit),
        peak: toWire(drawdownTrip.reference),
        netAssets: toWire(drawdownTrip.netAssets),
      },
    );
  }
  if (order.side === 'Sell' && snapshot.buyLimit !== undefined) {
    const refused = checkSellLimit(order, snapshot, snapshot.buyLimit);
    if (refused !== undefined) return refused;
  }
  if (limits.maxPositionPerSymbol !== undefined) {
    const projected = snapshot.position.plus(snapshot.pendingQuantity).plus(signedQuantity(order.side, order.quantity));
    if (projected.abs().gt(limits.maxPositionPerSymbol)) {
      return deny(
        'EXCEEDS_MAX_POSITION',
        `position ${toWire(projected)} in ${order.symbol} would exceed maxPositionPerSymbol ${toWire(limits.maxPositionPerSymbol)}`,
        {
          position: toWire(snapshot.position),
          pending: toWire(snapshot.pendingQuantity),
          projected: toWire(projected),
          limit: toWire(limits.maxPositionPerSymbol),
        },
      );
    }
  }
  const { account, buyLimit, marginRatio } = snapshot;
  if (account === undefined || buyLimit === undefined || marginRatio === undefined) {
    const missing = [
      account === undefined ? 'account' : '',
      buyLimit === undefined ? 'buy limit' : '',
      marginRatio === undefined ? 'margin ratio' : '',
    ].filter(Boolean);
    const cause = snapshot.figuresError === undefined ? '' : ` (${snapshot.figuresError.message})`;
    return deny('RISK_DATA_UNAVAILABLE', `no fresh ${missing.join(', ')} from the broker: order not sent${cause}`, {
      missing: missing.join(','),
    });
  }
  const maxQuantity = largerOf(buyLimit);
  if (order.side === 'Buy' && opening.gt(maxQuantity)) {
    return deny('EXCEEDS_BUY_LIMIT', `quantity ${toWire(opening)} exceeds the broker's limit ${toWire(maxQuantity)} for ${order.symbol}`, {
      quantity: toWire(opening),
      cashMaxQty: toWire(buyLimit.cashMaxQty),
      marginMaxQty: toWire(buyLimit.marginMaxQty),
    });
  }
  const price = snapshot.referencePrice;
  if (price === undefined) return noPrice(order);
  const notional = openingNotional ?? Money.notional(opening, price, currencyOf(marketOf(order.symbol)));
  // Buys pay the full value out of buy power; the margin requirement matters on top of that when im_factor
  // exceeds 1, and is the only check for a short sale.
  if (order.side === 'Buy' && notional.gt(account.buyPower)) {
    return deny('EXCEEDS_BUY_POWER', `order value ${toWire(notional)} exceeds buy power ${toWire(account.buyPower)}`, {
      required: toWire(notional),
      available: toWire(account.buyPower),
    });
  }
  const margin = notional.times(marginRatio.imFactor);
  if (margin.gt(account.buyPower)) {
    return deny(
      'INSUFFICIENT_MARGIN',
      `initial margin ${toWire(margin)} (${toWire(marginRatio.imFactor)} × ${toWire(notional)}) exceeds buy power ${toWire(account.buyPower)}`,
      {
        required: toWire(margin),
        available: toWire(account.buyPower),
        imFactor: toWire(marginRatio.imFactor),
        notional: toWire(notional),
      },
    );
  }
  return APPROVED;
}

/**
 * A sell larger than the broker lets you sell (its estimate for a sell counts the shares held, plus any it
 * would lend): named by what is missing, the position or the broker's room to go short.
 */
function checkSellLimit(order: OrderRequest, snapshot: RiskSnapshot, limit: BuyLimit): RiskDecision | undefined {
  const sellable = largerOf(limit);
  if (!order.quantity.gt(sellable)) return undefined;
  const { position, account } = snapshot;
  const held = position.isPositive() ? position : Quantity.ZERO;
  // A short position says the account sells short: what it lacks is margin for more (a short's position is shown signed).
  const shown = position.isNegative() ? position : held;
  const figures = { quantity: toWire(order.quantity), position: toWire(shown), sellable: toWire(sellable) };
  const what = `sell ${toWire(order.quantity)} ${order.symbol}`;
  const limited = `${what}: the broker lets you sell at most ${toWire(sellable)} (position ${toWire(shown)})`;
  if (sellable.gt(held) || position.isNegative()) return deny('EXCEEDS_SELL_LIMIT', limited, figures);
  // Lending none to an account that may sell short says its margin carries no short of even one share.
  if (snapshot.shortSelling === true) {
    if (account === undefined) return deny('EXCEEDS_SELL_LIMIT', `${limited}: short selling is on, but no margin is left for it`, figures);
    const buyPower = toWire(account.buyPower);
    return deny('EXCEEDS_SELL_LIMIT', `${limited}: short selling is on, but no margin is left for it (buy power ${buyPower})`, {
      ...figures,
      buyPower,
    });
  }
  if (held.isZero()) return deny('SHORT_SELLING_NOT_ALLOWED', `${what}: no position, and short selling is not allowed`, figures);
  return deny('SELL_EXCEEDS_POSITION', `${what}: more than the position of ${toWire(held)} (the account cannot sell short)`, figures);
}

function largerOf(limit: BuyLimit): Quantity {
  return limit.marginMaxQty.gt(limit.cashMaxQty) ? limit.marginMaxQty : limit.cashMaxQty;
}

function noPrice(order: OrderRequest): RiskDecision {
  return deny('NO_REFERENCE_PRICE', `no price known for ${order.symbol} (no limit price, no candle or quote yet): cannot value the order`, {
    symbol: order.symbol,
  });
}
