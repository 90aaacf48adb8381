// Account arithmetic over the books: marked figures per currency (net assets, margins, buy power), what an
// open order holds back, and the buy-limit answer, all from the same formulas so they always agree.
// A currency's ledger covers its cash and the positions of its market; there is no currency conversion.
import type { AccountBalance, BuyLimit, MarginRatio } from '../../domain/account.js';
import { Decimal, ZERO } from '../../domain/decimal.js';
import { atLeastZero, dividedBy, eq, gt, gte, isPositive, lte, min, minus, plus, times, toNumber } from '../../domain/decimal-shortcuts.js';
import type { OrderType, Side } from '../../domain/order-types.js';
import type { SecuritySymbol } from '../../domain/symbol.js';
import { markOf, type Book, type CurrencyLedger, type SymbolSlot } from './book.js';
import { noFees, type FeeModel } from './fees.js';
import { remainingOf, type OrderRecord } from './orders.js';
import type { VenueSettings } from './settings.js';

interface MarginFactors {
  readonly im: Decimal;
  readonly mm: Decimal;
  readonly fm: Decimal;
}

interface LedgerFigures {
  readonly netAssets: Decimal;
  readonly initMargin: Decimal;
  readonly maintenanceMargin: Decimal;
  readonly forcedMargin: Decimal;
  /** Net assets less initial margin and the margin open orders hold back: what new positions may use. */
  readonly excess: Decimal;
}

/** What an open order holds back. */
export interface Reservation {
  readonly cash: Decimal;
  readonly margin: Decimal;
  readonly fees: Decimal;
  readonly position: Decimal;
}

const ONE = new Decimal(1);
const NOTHING: Reservation = { cash: ZERO, margin: ZERO, fees: ZERO, position: ZERO };
const BASIS_POINTS = new Decimal(10_000);

export class Accounts {
  /** 1 + slippage, or undefined without slippage (saves a multiplication per order). */
  private readonly buySlippage: Decimal | undefined;
  /** Every symbol has the default margin factors, so holdings can be summed before applying them. */
  private readonly sameFactors: boolean;
  /** The figures of each ledger and the ledger version they were computed at (one order asks several times). */
  private readonly cached = new Map<CurrencyLedger, { version: number; figures: LedgerFigures }>();

  constructor(
    private readonly book: Book,
    private readonly settings: VenueSettings,
    private readonly fees: FeeModel,
  ) {
    this.buySlippage = settings.slippageBps > 0 ? ONE.plus(new Decimal(settings.slippageBps).dividedBy(BASIS_POINTS)) : undefined;
    this.sameFactors = Object.keys(settings.marginRatios.symbols).length === 0;
  }

  factors(symbol: SecuritySymbol): MarginFactors {
    // Without per-symbol factors there is nothing to look up (a lookup keyed by many symbols is a slow,
    // megamorphic property load on every order of a many-symbol run).
    if (this.sameFactors) return this.settings.marginRatios.default;
    return this.settings.marginRatios.symbols[symbol] ?? this.settings.marginRatios.default;
  }

  marginRatio(symbol: SecuritySymbol): MarginRatio {
    const { im, mm, fm } = this.factors(symbol);
    return { imFactor: im, mmFactor: mm, fmFactor: fm };
  }

  /** The ledger's marked figures; recomputed only after the ledger changed (see CurrencyLedger.version). */
  figures(ledger: CurrencyLedger): LedgerFigures {
    const cached = this.cached.get(ledger);
    if (cached !== undefined && cached.version === ledger.version) return cached.figures;
    const figures = this.computeFigures(ledger);
    if (cached === undefined) this.cached.set(ledger, { version: ledger.version, figures });
    else {
      cached.version = ledger.version;
      cached.figures = figures;
    }
    return figures;
  }

  private computeFigures(ledger: CurrencyLedger): LedgerFigures {
    const sums = this.sameFactors ? ledger.sums.current() : undefined;
    if (sums !== undefined) {
      const { im, mm, fm } = this.settings.marginRatios.default;
      const netAssets = plus(ledger.cash, sums.value);
      const initMargin = times(sums.gross, im);
      const excess = minus(minus(netAssets, initMargin), ledger.marginReserved);
      return { netAssets, initMargin, maintenanceMargin: times(sums.gross, mm), forcedMargin: times(sums.gross, fm), excess };
    }
    let netAssets = ledger.cash;
    let initMargin = ZERO;
    let maintenanceMargin = ZERO;
    let forcedMargin = ZERO;
    for (const slot of ledger.held) {
      const quantity = slot.position!.position.quantity;
      const value = quantity.times(markOf(slot));
      const gross = value.abs();
      const factors = this.factors(slot.symbol);
      netAssets = netAssets.plus(value);
      initMargin = initMargin.plus(gross.times(factors.im));
      maintenanceMargin = maintenanceMargin.plus(gross.times(factors.mm));
      forcedMargin = forcedMargin.plus(gross.times(factors.fm));
    }
    const excess = netAssets.minus(initMargin).minus(ledger.marginReserved);
    return { netAssets, initMargin, maintenanceMargin, forcedMargin, excess };
  }

  balance(ledger: CurrencyLedger): AccountBalance {
    const figures = this.figures(ledger);
    const availableCash = minus(ledger.cash, ledger.frozenCash);
    const buyPower = dividedBy(atLeastZero(figures.excess), this.settings.marginRatios.default.im);
    const remainingFinanceAmount = atLeastZero(minus(buyPower, atLeastZero(availableCash)));
    const riskLevel = gte(figures.netAssets, figures.initMargin)
      ? 0
      : gte(figures.netAssets, figures.maintenanceMargin)
        ? 1
        : gte(figures.netAssets, figures.forcedMargin)
          ? 2
          : 3;
    return {
      currency: ledger.currency,
      totalCash: ledger.cash,
      maxFinanceAmount: plus(remainingFinanceAmount, ledger.cash.isNegative() ? atLeastZero(ledger.cash.negated()) : ZERO),
      remainingFinanceAmount,
      riskLevel,
      marginCall: atLeastZero(minus(figures.maintenanceMargin, figures.netAssets)),
      netAssets: figures.netAssets,
      initMargin: figures.initMargin,
      maintenanceMargin: figures.maintenanceMargin,
      buyPower,
      cashInfos: [
        {
          currency: ledger.currency,
          withdrawCash: atLeastZero(min(availableCash, figures.excess)),
          availableCash,
          frozenCash: ledger.frozenCash,
          settlingCash: ZERO,
        },
      ],
      frozenTransactionFees: [{ currency: ledger.currency, frozenTransactionFee: this.frozenFees(ledger) }],
    };
  }

  /** The price reservations and buy limits are computed at: the limit, else the trigger, else the mark (plus slippage for buys). */
  referencePrice(slot: SymbolSlot, side: Side, price: Decimal | undefined, triggerPrice: Decimal | undefined): Decimal {
    if (price !== undefined) return price;
    if (triggerPrice !== undefined) return triggerPrice;
    const mark = markOf(slot);
    return side === 'Buy' && this.buySlippage !== undefined ? mark.times(this.buySlippage) : mark;
  }

  /** How much of `remaining` (to be executed on `side`) would close the current position rather than open one. */
  closable(slot: SymbolSlot, side: Side, ownPositionReserve: Decimal): Decimal {
    const held = slot.position;
    if (held === undefined) return ZERO;
    const quantity = held.position.quantity;
    if (side === 'Sell') return atLeastZero(plus(minus(quantity, held.reservedSell), ownPositionReserve));
    return quantity.isNegative() ? quantity.negated() : ZERO;
  }

  estimatedFees(
    slot: SymbolSlot,
    side: Side,
    record: Pick<OrderRecord, 'executedQuantity' | 'executedValue' | 'fees'> | undefined,
    remaining: Decimal,
    price: Decimal,
  ): Decimal {
    if (this.fees === noFees) return ZERO;
    const executedQuantity = record?.executedQuantity ?? ZERO;
    const executedValue = record?.executedValue ?? ZERO;
    const total = this.fees.orderFees({
      symbol: slot.symbol,
      market: slot.market,
      side,
      quantity: executedQuantity.plus(remaining),
      value: executedValue.plus(remaining.times(price)),
    }).total;
    return Decimal.max(ZERO, total.minus(record?.fees.total ?? ZERO));
  }

  reservationOf(slot: SymbolSlot, record: OrderRecord): Reservation {
    const remaining = remainingOf(record);
    const opening = remaining === record.openingQuantity ? remaining : min(remaining, record.openingQuantity);
    const price = record.referencePrice;
    const im = this.factors(record.symbol).im;
    if (record.side === 'Buy') {
      const fees = this.estimatedFees(slot, 'Buy', record, remaining, price);
      const value = times(remaining, price);
      // An order that opens all it buys holds its whole value as margin: one product serves both.
      const openingValue = eq(opening, remaining) ? value : times(opening, price);
      return { cash: plus(value, fees), margin: plus(times(openingValue, im), fees), fees, position: ZERO };
    }
    return { cash: ZERO, margin: times(times(opening, price), im), fees: ZERO, position: minus(remaining, opening) };
  }

  /** Sets an order's reservations to `next` (its reservationOf while open; undefined releases everything). */
  reserve(slot: SymbolSlot, record: OrderRecord, next: Reservation = NOTHING): void {
    const ledger = slot.ledger;
    if (!eq(record.cashReserve, next.cash)) {
      ledger.frozenCash = plus(minus(ledger.frozenCash, record.cashReserve), next.cash);
      record.cashReserve = next.cash;
      ledger.version += 1;
    }
    if (!eq(record.marginReserve, next.margin)) {
      ledger.marginReserved = plus(minus(ledger.marginReserved, record.marginReserve), next.margin);
      record.marginReserve = next.margin;
      ledger.version += 1;
    }
    if (!eq(record.positionReserve, next.position)) {
      slot.position!.reservedSell = plus(minus(slot.position!.reservedSell, record.positionReserve), next.position);
      record.positionReserve = next.position;
    }
  }

  buyLimit(slot: SymbolSlot, side: Side, orderType: OrderType, price: Decimal | undefined): BuyLimit {
    const reference = this.referencePrice(slot, side, orderType === 'MO' || orderType === 'AO' ? undefined : price, undefined);
    const figures = this.figures(slot.ledger);
    const im = this.factors(slot.symbol).im;
    const closable = this.closable(slot, side, ZERO);
    if (side === 'Sell') {
      const shortable = this.settings.shortSelling
        ? largest((q) => q.times(reference).times(im).lte(figures.excess), figures.excess, reference.times(im))
        : ZERO;
      return { cashMaxQty: closable, marginMaxQty: closable.plus(shortable) };
    }
    const available = atLeastZero(minus(slot.ledger.cash, slot.ledger.frozenCash));
    if (this.fees === noFees) {
      // Without fees both limits are whole divisions: what the searches below would find. In a cash account
      // without holdings both divide the same figures, so the second is the first.
      const unit = times(reference, im);
      const cashMaxQty = isPositive(reference) ? wholeUnits(available, reference) : ZERO;
      if (!isPositive(unit) || figures.excess.isNegative()) return { cashMaxQty, marginMaxQty: ZERO };
      const sameDivision = eq(figures.excess, available) && eq(unit, reference);
      return { cashMaxQty, marginMaxQty: plus(closable, sameDivision ? cashMaxQty : wholeUnits(figures.excess, unit)) };
    }
    const fees = (quantity: Decimal): Decimal => this.estimatedFees(slot, 'Buy', undefined, quantity, reference);
    const cashMaxQty = largest((q) => q.times(reference).plus(fees(q)).lte(available), available, reference);
    const opening = (q: Decimal): Decimal => Decimal.max(ZERO, q.minus(closable));
    const marginMaxQty = largest(
      (q) => opening(q).times(reference).times(im).plus(fees(q)).lte(figures.excess),
      Decimal.max(ZERO, figures.excess),
      reference.times(im),
      closable,
    );
    return { cashMaxQty, marginMaxQty };
  }

  private frozenFees(ledger: CurrencyLedger): Decimal {
    if (this.fees === noFees) return ZERO;
    let total = ZERO;
    for (const slot of this.book.slots.values()) {
      if (slot.ledger !== ledger) continue;
      for (const record of slot.resting)
        total = total.plus(
          record.side === 'Buy' ? this.estimatedFees(slot, 'Buy', record, remainingOf(record), record.referencePrice) : ZERO,
        );
    }
    return total;
  }
}

/**
 * The largest whole quantity q ≤ `extra` + budget / unitCost + 1 with fits(q) (fits must grow false with q).
 * The answer is usually just under that bound (exactly under it without fees), so the search gallops down
 * from the bound before bisecting: a few checks instead of one per bit of the budget.
 */
function largest(fits: (quantity: Decimal) => boolean, budget: Decimal, unitCost: Decimal, extra: Decimal = ZERO): Decimal {
  if (!unitCost.gt(0)) return ZERO;
  const bound = extra.plus(wholeUnits(budget, unitCost)).plus(1);
  if (!fits(ZERO)) return ZERO;
  if (fits(bound)) return bound;
  let high = bound;
  let low = ZERO;
  for (let step = ONE; ; step = step.times(2)) {
    const probe = high.minus(step);
    if (!probe.gt(0)) break;
    if (fits(probe)) {
      low = probe;
      break;
    }
    high = probe;
  }
  while (high.minus(low).gt(1)) {
    const middle = low.plus(high).dividedBy(2).floor();
    if (fits(middle)) low = middle;
    else high = middle;
  }
  return low;
}

/**
 * floor(max(0, budget) / unitCost) for unitCost > 0: a float estimate, taken as it is when it is clearly
 * not near a whole number, else corrected by multiplication (exact, and cheaper than a 40-digit division).
 */
function wholeUnits(budget: Decimal, unitCost: Decimal): Decimal {
  if (!isPositive(budget)) return ZERO;
  const budgetFloat = toNumber(budget);
  const unitFloat = toNumber(unitCost);
  const estimate = budgetFloat / unitFloat;
  const floor = Math.floor(estimate);
  if (clearlyBetweenWholes(budgetFloat, unitFloat, estimate, floor)) return new Decimal(floor);
  let units = new Decimal(floor);
  while (isPositive(units) && gt(units.times(unitCost), budget)) units = units.minus(1);
  while (lte(units.plus(1).times(unitCost), budget)) units = units.plus(1);
  return units;
}

/** Normal floats both (no underflow, no overflow): each carries a relative error of at most 2^-53. */
const NORMAL_MIN = 1e-290;
const NORMAL_MAX = 1e290;
/** Below this the estimate's absolute error is under 1e9 · 4 · 2^-53 < 5e-7, well inside the margin. */
const ESTIMATE_MAX = 1e9;
const MARGIN = 1e-6;

/**
 * Whether budget / unitCost surely has the floor of its float estimate. The two conversions and the
 * division each round once (relative error ≤ 2^-53), so for normal operands and an estimate below 1e9 the
 * exact quotient lies within 5e-7 of the estimate: an estimate more than 1e-6 away from both neighbouring
 * whole numbers has the same whole part as the exact quotient.
 */
function clearlyBetweenWholes(budget: number, unitCost: number, estimate: number, floor: number): boolean {
  if (!(budget >= NORMAL_MIN && budget <= NORMAL_MAX && unitCost >= NORMAL_MIN && unitCost <= NORMAL_MAX)) return false;
  return estimate < ESTIMATE_MAX && estimate - floor > MARGIN && floor + 1 - estimate > MARGIN;
}
