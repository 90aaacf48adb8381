// The journal port: what the executor records (intents, denials, orders, fills, state changes), the exits the
// runtime holds, and what it reads back on restart. The SQLite journal implements it; runs without a journal
// file use `noJournal`.
import type {
  ExitSpec,
  Fill,
  OrderIntent,
  OrderStatus,
  OrderType,
  Position,
  Price,
  Quantity,
  SecuritySymbol,
  Side,
} from '../domain/index.js';
import type { JournalOwner } from './journal-owner.js';

export interface JournalOrder {
  readonly clientOrderId: string;
  readonly orderId: string | undefined;
  readonly intentId: number | undefined;
  readonly strategy: string;
  readonly symbol: SecuritySymbol;
  readonly side: Side;
  readonly orderType: OrderType;
  readonly quantity: Quantity;
  readonly price: Price | undefined;
  readonly status: OrderStatus;
  readonly executedQuantity: Quantity;
  readonly executedPrice: Price | undefined;
  readonly message: string;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface JournalOrderChange {
  readonly orderId?: string;
  readonly status?: OrderStatus;
  readonly executedQuantity?: Quantity;
  readonly executedPrice?: Price | undefined;
  readonly message?: string;
  readonly updatedAt: number;
}

/** Where a status change came from. */
export type ChangeSource = 'submit' | 'push' | 'query' | 'restart' | 'lookup';

export interface JournalDenial {
  readonly intentId: number;
  readonly strategy: string;
  readonly time: number;
  readonly code: string;
  readonly message: string;
  readonly figures: Readonly<Record<string, string>>;
}

/** Exits a strategy attached to its position in a symbol, as the runtime holds them (one row per strategy and symbol). */
export interface JournalExit {
  readonly strategy: string;
  readonly symbol: SecuritySymbol;
  readonly exits: ExitSpec;
  /** The side of the position they protect; undefined until the position was seen open (the entry may not have filled). */
  readonly direction: 'long' | 'short' | undefined;
  /** The best price since the position opened (the trailing stop follows it); undefined until then. */
  readonly best: Price | undefined;
  /** The tag of the exit whose level was reached, while its close has not made the position flat. */
  readonly fired: string | undefined;
  readonly updatedAt: number;
}

export interface Journal {
  /** Returns the intent's id (a sequence unique within the journal). */
  recordIntent(strategy: string, time: number, intent: OrderIntent): number;
  recordDenial(denial: JournalDenial): void;
  /** Written before the order is sent, so a crash mid-send leaves a row to reconcile by client order id. */
  recordOrder(order: JournalOrder): void;
  updateOrder(clientOrderId: string, change: JournalOrderChange): void;
  recordStateChange(clientOrderId: string, time: number, from: OrderStatus | undefined, to: OrderStatus, source: ChangeSource): void;
  /** False when the fill was already recorded (same fill id). */
  recordFill(fill: Fill, clientOrderId: string, strategy: string): boolean;
  savePosition(position: Position, time: number): void;
  /** Records (or replaces) the exits held for a strategy's position in a symbol. */
  saveExit(exit: JournalExit): void;
  /** Forgets them: the position closed. */
  removeExit(strategy: string, symbol: SecuritySymbol): void;
  /** The exits held when the journal was last written, to re-arm on restart. */
  exits(): readonly JournalExit[];
  /** Anything else worth keeping: runs started and stopped, mismatches, strategy failures. */
  recordEvent(time: number, type: string, detail: Readonly<Record<string, unknown>>): void;
  /** Whether an order with this client order id was ever recorded. */
  hasOrder(clientOrderId: string): boolean;
  /** Orders not known to be finished, for reconciliation on start. */
  openOrders(): readonly JournalOrder[];
  /** The last saved position of each symbol. */
  positions(): readonly Position[];
  /** The account the journal belongs to, once claimed (undefined for a new journal, or one from before owners were recorded). */
  owner(): JournalOwner | undefined;
  /** Binds the journal to its account on first use; throws (InvalidInputError) for another account or mode. */
  claim(owner: JournalOwner): void;
  /** Makes everything written durable (WAL checkpoint). */
  flush(): void;
  close(): void;
}

/** A journal that keeps nothing (ids are still unique): for backtests and runs without `--journal`. */
export function noJournal(): Journal {
  let sequence = 0;
  return {
    recordIntent: () => ++sequence,
    recordDenial: () => undefined,
    recordOrder: () => undefined,
    updateOrder: () => undefined,
    recordStateChange: () => undefined,
    recordFill: () => true,
    savePosition: () => undefined,
    saveExit: () => undefined,
    removeExit: () => undefined,
    exits: () => [],
    recordEvent: () => undefined,
    hasOrder: () => false,
    openOrders: () => [],
    positions: () => [],
    owner: () => undefined,
    claim: () => undefined,
    flush: () => undefined,
    close: () => undefined,
  };
}

/** Where `trader run` keeps its journal unless told otherwise (the state folder is git-ignored). */
export const DEFAULT_JOURNAL_FILE = 'state/journal.sqlite';
