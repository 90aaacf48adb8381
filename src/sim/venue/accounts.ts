// Account arithmetic over the books: marked figures per currency (net assets, margins, buy power), what an
// open order holds back, and the buy-limit answer, all from the same formulas so they always agree.
// A currency's ledger covers its cash and the positions of its market; there is no currency conversion.
import type { AccountBalance, BuyLimit, MarginRatio } from '../../domain/account.js';
import { Fixed } from '../../domain/fixed.js';
import { type FixedPoint, minOf } from '../../domain/fixed-point.js';
import { EXTRA_PLACES } from '../../domain/fixed-raw.js';
import { Money } from '../../domain/money.js';
import type { OrderType, Side } from '../../domain/order-types.js';
import type { Price } from '../../domain/price.js';
import { Quantity } from '../../domain/quantity.js';
import type { SecuritySymbol } from '../../domain/symbol.js';
import { markOf, type CurrencyLedger, type SymbolSlot } from './book.js';
import { heldValues, type HeldValues } from './held-value.js';
import { largestQuantity, wholeUnits } from './largest-quantity.js';
import { noFees, type FeeModel } from './fees.js';
import { remainingOf, type OrderRecord } from './orders.js';
import type { VenueSettings } from './settings.js';

interface MarginFactors {
  readonly im: Fixed;
  readonly mm: Fixed;
  readonly fm: Fixed;
}

interface LedgerFigures {
  readonly netAssets: Money;
  readonly initMargin: Money;
  readonly maintenanceMargin: Money;
  readonly forcedMargin: Money;
  /** Net assets less initial margin and the margin open orders hold back: what new positions may use. */
  readonly excess: Money;
}

/** What an open order holds back. */
export interface Reservation {
  readonly cash: Money;
  readonly margin: Money;
  readonly fees: Money;
  readonly position: Quantity;
}

const ONE = Quantity.of(1);
const BASIS_POINTS = Fixed.of(10_000);

export class Accounts {
  /** 1 + slippage, or undefined without slippage (saves a multiplication per order). */
  private readonly buySlippage: Fixed | undefined;
  /** Every symbol has the default margin factors, so holdings can be summed before applying them. */
  private readonly sameFactors: boolean;
  /** The figures of each ledger and the ledger version they were computed at (one order asks several times). */
  private readonly cached = new Map<CurrencyLedger, { version: number; figures: LedgerFigures }>();
  /**
   * The held values of each ledger at a holdings version: orders placed one after another between two
   * bars change only reservations, so the O(positions) sum runs once per bar time, not once per order.
   */
  private readonly held = new Map<CurrencyLedger, { version: number; values: HeldValues }>();
  /** The short-position factors when set apart from the symbols' own (settings.shortMarginRatios). */
  private readonly shortRatios: MarginFactors | undefined;
  /** No reservation, per currency. */
  private readonly nothing = new Map<string, Reservation>();
  /** Each set of factors as a MarginRatio, made once (the answer is read-only; every opening order asks). */
  private readonly ratios = new Map<MarginFactors, MarginRatio>();

  constructor(
    private readonly settings: VenueSettings,
    private readonly fees: FeeModel,
  ) {
    const basisPoints = Fixed.of(settings.slippageBps, 'slippage');
    this.buySlippage = basisPoints.isPositive()
      ? Fixed.ONE.plus(basisPoints.dividedBy(BASIS_POINTS, basisPoints.precision + 4)).normalized()
      : undefined;
    this.sameFactors = Object.keys(settings.marginRatios.symbols).length === 0;
    this.shortRatios = settings.shortMarginRatios ?? undefined;
  }

  /** The factors a short position (or an order opening one) of `symbol` is margined at. */
  shortFactors(symbol: SecuritySymbol): MarginFactors {
    return this.shortRatios ?? this.factors(symbol);
  }

  factors(symbol: SecuritySymbol): MarginFactors {
    // Without per-symbol factors there is nothing to look up (a lookup keyed by many symbols is a slow,
    // megamorphic property load on every order of a many-symbol run).
    if (this.sameFactors) return this.settings.marginRatios.default;
    return this.settings.marginRatios.symbols[symbol] ?? this.settings.marginRatios.default;
  }

  marginRatio(symbol: SecuritySymbol): MarginRatio {
    const factors = this.factors(symbol);
    let ratio = this.ratios.get(factors);
    if (ratio === undefined) {
      ratio = { imFactor: factors.im, mmFactor: factors.mm, fmFactor: factors.fm };
      this.ratios.set(factors, ratio);
    }
    return ratio;
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
    const zero = Money.zero(ledger.currency);
    let netAssets = ledger.cash;
    if (this.sameFactors) {
      // One set of factors: sum the holdings first, then apply them once.
      const held = this.heldValuesOf(ledger);
      const value = held.value;
      // Short value apart only when shorts have factors of their own.
      const shorts = this.shortRatios;
      const shortGross = shorts === undefined ? zero : held.shortGross;
      const gross = shorts === undefined ? held.gross : held.gross.minus(held.shortGross);
      const { im, mm, fm } = this.settings.marginRatios.default;
      netAssets = netAssets.plus(value);
      let initMargin = gross.times(im);
      let maintenanceMargin = gross.times(mm);
      let forcedMargin = gross.times(fm);
      if (shorts !== undefined && !shortGross.isZero()) {
        initMargin = initMargin.plus(shortGross.times(shorts.im));
        maintenanceMargin = maintenanceMargin.plus(shortGross.times(shorts.mm));
        forcedMargin = forcedMargin.plus(shortGross.times(shorts.fm));
      }
      const excess = netAssets.minus(initMargin).minus(ledger.marginReserved);
      return { netAssets, initMargin, maintenanceMargin, forcedMargin, excess };
    }
    let initMargin = zero;
    let maintenanceMargin = zero;
    let forcedMargin = zero;
    for (const slot of ledger.held) {
      const value = Money.notional(slot.position!.position.quantity, markOf(slot), ledger.currency);
      const gross = value.abs();
      const factors = value.isNegative() ? this.shortFactors(slot.symbol) : this.factors(slot.symbol);
      netAssets = netAssets.plus(value);
      initMargin = initMargin.plus(gross.times(factors.im));
      maintenanceMargin = maintenanceMargin.plus(gross.times(factors.mm));
      forcedMargin = forcedMargin.plus(gross.times(factors.fm));
    }
    const excess = netAssets.minus(initMargin).minus(ledger.marginReserved);
    return { netAssets, initMargin, maintenanceMargin, forcedMargin, excess };
  }

  private heldValuesOf(ledger: CurrencyLedger): HeldValues {
    const cached = this.held.get(ledger);
    if (cached !== undefined && cached.version === ledger.holdingsVersion) return cached.values;
    const values = heldValues(ledger);
    if (cached === undefined) this.held.set(ledger, { version: ledger.holdingsVersion, values });
    else {
      cached.version = ledger.holdingsVersion;
      cached.values = values;
    }
    return values;
  }

  balance(ledger: CurrencyLedger): AccountBalance {
    const figures = this.figures(ledger);
    const zero = Money.zero(ledger.currency);
    const availableCash = ledger.cash.minus(ledger.frozenCash);
    const buyPower = buyPowerOf(figures.excess, this.settings.marginRatios.default.im);
    const remainingFinanceAmount = atLeastZero(buyPower.minus(atLeastZero(availableCash)));
    const riskLevel = figures.netAssets.gte(figures.initMargin)
      ? 0
      : figures.netAssets.gte(figures.maintenanceMargin)
        ? 1
        : figures.netAssets.gte(figures.forcedMargin)
          ? 2
          : 3;
    return {
      currency: ledger.currency,
      totalCash: ledger.cash,
      maxFinanceAmount: ledger.cash.isNegative() ? remainingFinanceAmount.minus(ledger.cash) : remainingFinanceAmount,
      remainingFinanceAmount,
      riskLevel,
      marginCall: atLeastZero(figures.maintenanceMargin.minus(figures.netAssets)),
      netAssets: figures.netAssets,
      initMargin: figures.initMargin,
      maintenanceMargin: figures.maintenanceMargin,
      buyPower,
      cashInfos: [
        {
          currency: ledger.currency,
          withdrawCash: atLeastZero(minOf(availableCash, figures.excess)),
          availableCash,
          frozenCash: ledger.frozenCash,
          settlingCash: zero,
        },
      ],
      frozenTransactionFees: [{ currency: ledger.currency, frozenTransactionFee: ledger.frozenFees }],
    };
  }

  /** The price reservations and buy limits are computed at: the limit, else the trigger, else the mark (plus slippage for buys). */
  referencePrice(slot: SymbolSlot, side: Side, price: Price | undefined, triggerPrice: Price | undefined): Price {
    if (price !== undefined) return price;
    if (triggerPrice !== undefined) return triggerPrice;
    const mark = markOf(slot);
    return side === 'Buy' && this.buySlippage !== undefined ? mark.times(this.buySlippage) : mark;
  }

  /** How much of `remaining` (to be executed on `side`) would close the current position rather than open one. */
  closable(slot: SymbolSlot, side: Side, ownPositionReserve: Quantity): Quantity {
    const held = slot.position;
    if (held === undefined) return Quantity.ZERO;
    const quantity = held.position.quantity;
    if (side === 'Sell') return atLeastZero(quantity.minus(held.reservedSell).plus(ownPositionReserve));
    return quantity.isNegative() ? quantity.negated() : Quantity.ZERO;
  }

  estimatedFees(
    slot: SymbolSlot,
    side: Side,
    record: Pick<OrderRecord, 'executedQuantity' | 'executedValue' | 'fees'> | undefined,
    remaining: Quantity,
    price: Price,
    /** remaining × price, when the caller has it already. */
    known?: Money,
  ): Money {
    const currency = slot.ledger.currency;
    if (this.fees === noFees) return Money.zero(currency);
    const value = known ?? Money.notional(remaining, price, currency);
    const total = this.fees.orderFees({
      symbol: slot.symbol,
      market: slot.market,
      side,
      quantity: record === undefined ? remaining : record.executedQuantity.plus(remaining),
      value: record === undefined ? value : record.executedValue.plus(value),
    }).total;
    return atLeastZero(record === undefined ? total : total.minus(record.fees.total));
  }

  reservationOf(slot: SymbolSlot, record: OrderRecord): Reservation {
    const remaining = remainingOf(record);
    const opening = remaining === record.openingQuantity ? remaining : minOf(remaining, record.openingQuantity);
    const price = record.referencePrice;
    const currency = slot.ledger.currency;
    const im = this.factors(record.symbol).im;
    if (record.side === 'Buy') {
      const value = Money.notional(remaining, price, currency);
      const fees = this.estimatedFees(slot, 'Buy', record, remaining, price, value);
      // An order that opens all it buys holds its whole value as margin: one product serves both.
      const openingValue = opening.eq(remaining) ? value : Money.notional(opening, price, currency);
      return { cash: value.plus(fees), margin: openingValue.times(im).plus(fees), fees, position: Quantity.ZERO };
    }
    const zero = Money.zero(currency);
    // A sell opens a short with what it sells beyond the position.
    const shortIm = this.shortRatios === undefined ? im : this.shortRatios.im;
    return { cash: zero, margin: Money.notional(opening, price, currency).times(shortIm), fees: zero, position: remaining.minus(opening) };
  }

  /** Sets an order's reservations to `next` (its reservationOf while open; undefined releases everything). */
  reserve(slot: SymbolSlot, record: OrderRecord, next: Reservation = this.nothingIn(slot.ledger.currency)): void {
    const ledger = slot.ledger;
    if (!record.cashReserve.eq(next.cash)) {
      ledger.frozenCash = ledger.frozenCash.minus(record.cashReserve).plus(next.cash);
      record.cashReserve = next.cash;
      ledger.version += 1;
    }
    if (!record.marginReserve.eq(next.margin)) {
      ledger.marginReserved = ledger.marginReserved.minus(record.marginReserve).plus(next.margin);
      record.marginReserve = next.margin;
      ledger.version += 1;
    }
    if (!record.feeReserve.eq(next.fees)) {
      ledger.frozenFees = ledger.frozenFees.minus(record.feeReserve).plus(next.fees);
      record.feeReserve = next.fees;
    }
    if (!record.positionReserve.eq(next.position)) {
      slot.position!.reservedSell = slot.position!.reservedSell.minus(record.positionReserve).plus(next.position);
      record.positionReserve = next.position;
    }
  }

  private nothingIn(currency: string): Reservation {
    let nothing = this.nothing.get(currency);
    if (nothing === undefined) {
      const zero = Money.zero(currency);
      nothing = { cash: zero, margin: zero, fees: zero, position: Quantity.ZERO };
      this.nothing.set(currency, nothing);
    }
    return nothing;
  }

  buyLimit(slot: SymbolSlot, side: Side, orderType: OrderType, price: Price | undefined): BuyLimit {
    const reference = this.referencePrice(slot, side, orderType === 'MO' || orderType === 'AO' ? undefined : price, undefined);
    const figures = this.figures(slot.ledger);
    const currency = slot.ledger.currency;
    const im = this.factors(slot.symbol).im;
    const closable = this.closable(slot, side, Quantity.ZERO);
    // What one share costs at the reference price: in cash, and in margin.
    const unit = Money.notional(ONE, reference, currency);
    const marginUnit = unit.times(im);
    if (side === 'Sell') {
      const shortIm = this.shortFactors(slot.symbol).im;
      const shortable = this.settings.shortSelling
        ? largestQuantity({
            fits: (q) => Money.notional(q, reference, currency).times(shortIm).lte(figures.excess),
            budget: figures.excess,
            unitCost: unit.times(shortIm),
          })
        : Quantity.ZERO;
      return { cashMaxQty: closable, marginMaxQty: closable.plus(shortable) };
    }
    const available = atLeastZero(slot.ledger.cash.minus(slot.ledger.frozenCash));
    if (this.fees === noFees) {
      // Without fees both limits are whole divisions: what the searches below would find. In a cash account
      // without holdings both divide the same figures, so the second is the first.
      const cashMaxQty = reference.isPositive() ? wholeUnits(available, unit) : Quantity.ZERO;
      if (!marginUnit.isPositive() || figures.excess.isNegative()) return { cashMaxQty, marginMaxQty: Quantity.ZERO };
      const sameDivision = figures.excess.eq(available) && marginUnit.eq(unit);
      return { cashMaxQty, marginMaxQty: closable.plus(sameDivision ? cashMaxQty : wholeUnits(figures.excess, marginUnit)) };
    }
    const fees = (quantity: Quantity): Money => this.estimatedFees(slot, 'Buy', undefined, quantity, reference);
    const cashMaxQty = largestQuantity({
      fits: (q) => {
        const value = Money.notional(q, reference, currency);
        return value.plus(this.estimatedFees(slot, 'Buy', undefined, q, reference, value)).lte(available);
      },
      budget: available,
      unitCost: unit,
      feesOf: fees,
    });
    // A cash account buying without a position to close asks the same question twice: answer it once.
    if (closable.isZero() && marginUnit.eq(unit) && figures.excess.eq(available)) return { cashMaxQty, marginMaxQty: cashMaxQty };
    const opening = (q: Quantity): Quantity => atLeastZero(q.minus(closable));
    const marginMaxQty = largestQuantity({
      fits: (q) => Money.notional(opening(q), reference, currency).times(im).plus(fees(q)).lte(figures.excess),
      budget: atLeastZero(figures.excess),
      unitCost: marginUnit,
      extra: closable,
      feesOf: fees,
    });
    return { cashMaxQty, marginMaxQty };
  }
}

/** The value when positive, else zero. */
function atLeastZero<T extends FixedPoint>(value: T): T {
  return value.isNegative() ? value.minus(value) : value;
}

/**
 * Buy power: what new positions may use (excess ÷ the initial margin factor, rounded down at EXTRA_PLACES
 * more places when that division does not end); zero when there is no excess.
 */
function buyPowerOf(excess: Money, im: Fixed): Money {
  if (!excess.isPositive()) return Money.zero(excess.currency);
  return im.eq(Fixed.ONE) ? excess : excess.dividedBy(im, excess.precision + EXTRA_PLACES, 'down').normalized();
}
