// Snapshot and restore of a venue's whole state (books, orders, fills, fault streams), as plain JSON-able
// data the protocol server can persist. Reservations are not stored: they are re-made from the open orders.
import type { Fill } from '../../domain/fill.js';
import { Money } from '../../domain/money.js';
import { positionAt } from '../../domain/position.js';
import { Price } from '../../domain/price.js';
import { Quantity } from '../../domain/quantity.js';
import { isOpen } from '../../domain/order-status.js';
import type { Accounts } from './accounts.js';
import { holdQuantity, refreshFloats, type Book } from './book.js';
import type { FaultInjector, FaultState } from './faults.js';
import type { OrderRegister } from './order-register.js';
import type { CashFlow } from './cash-flows.js';
import {
  carryFlowFromJson,
  carryFlowToJson,
  fillFromJson,
  fillToJson,
  finiteOrNull,
  orderFromJson,
  orderToJson,
  text,
  type ParsedSnapshot,
  type VenueSnapshot,
} from './snapshot.js';

export interface VenueState {
  readonly book: Book;
  readonly accounts: Accounts;
  readonly records: OrderRegister;
  readonly fills: Fill[];
  /** Carry rows of the cash-flow ledger (dividends, splits, borrow fees): fills give the rest. */
  readonly carryFlows: CashFlow[];
  readonly faults: FaultInjector;
  readonly nextOrderNumber: number;
}

export function snapshotOf(state: VenueState): VenueSnapshot {
  return {
    version: 1,
    nextOrderNumber: state.nextOrderNumber,
    faults: { ...state.faults.getState() },
    ledgers: [...state.book.ledgers.values()].map((ledger) => ({ currency: ledger.currency, cash: text(ledger.cash) })),
    slots: [...state.book.slots.values()].map((slot) => ({
      symbol: slot.symbol,
      mark: finiteOrNull(slot.mark),
      time: finiteOrNull(slot.time),
      volume: slot.volume,
      consumed: slot.consumed,
      barStart: finiteOrNull(slot.barStart),
      position:
        slot.position === undefined
          ? null
          : {
              quantity: text(slot.position.position.quantity),
              averageCost: text(slot.position.position.averageCost),
              realizedPnl: text(slot.position.position.realizedPnl),
              initQuantity: text(slot.position.initQuantity),
              dayKey: slot.position.dayKey,
            },
    })),
    orders: [...state.records.values()].map(orderToJson),
    executions: state.fills.map(fillToJson),
    carryFlows: state.carryFlows.map(carryFlowToJson),
  };
}

/** Loads a checked snapshot into a fresh venue's state; returns the next order number. */
export function restoreInto(state: VenueState, snapshot: ParsedSnapshot): number {
  const { book, accounts } = state;
  for (const { currency, cash } of snapshot.ledgers) book.ledger(currency).cash = Money.of(cash, currency);
  for (const saved of snapshot.slots) {
    const slot = book.slot(saved.symbol);
    slot.mark = saved.mark ?? Number.NaN;
    slot.time = saved.time ?? Number.NaN;
    slot.volume = saved.volume;
    slot.consumed = saved.consumed;
    slot.barStart = saved.barStart ?? Number.NaN;
    if (saved.position === null) continue;
    const { quantity, averageCost, realizedPnl, initQuantity, dayKey } = saved.position;
    // The cost of the open quantity is what it cost at its average price.
    const position = positionAt(slot.symbol, Quantity.of(quantity), Price.of(averageCost), Money.of(realizedPnl, slot.ledger.currency));
    slot.position = { position, initQuantity: Quantity.of(initQuantity), dayKey, reservedSell: Quantity.ZERO };
    holdQuantity(slot, position.quantity);
    if (slot.quantity !== 0) slot.ledger.held.push(slot);
  }
  for (const json of snapshot.orders) {
    const record = orderFromJson(json);
    state.records.add(record);
    if (!isOpen(record.status)) continue;
    const slot = book.slot(record.symbol);
    slot.resting.push(record);
    accounts.reserve(slot, record, accounts.reservationOf(slot, record));
  }
  state.fills.push(...snapshot.executions.map(fillFromJson));
  state.carryFlows.push(...snapshot.carryFlows.map(carryFlowFromJson));
  state.faults.setState(snapshot.faults as FaultState);
  for (const ledger of book.ledgers.values()) refreshFloats(ledger);
  return snapshot.nextOrderNumber;
}
