// The venue's orders by id. The venue names an order after its sequence number ("7" and 17 digits), so
// its own orders sit in a list at that number: registering one is an array write instead of an insert
// into a hash map that grows to every order of the run, and finding one reads the number back from the
// id. Other ids (of another form, or numbers past the end of the list, which only a restored snapshot can
// bring) are kept in a map beside it.
import type { OrderRecord } from './orders.js';

const DIGITS = 17;
const SEVEN = 55;
const ZERO_CODE = 48;

/** The id of the venue's `number`th order. */
export function orderIdOf(number: number): string {
  return `7${String(number).padStart(DIGITS, '0')}`;
}

export class OrderRegister {
  /** The venue's own orders at their sequence numbers (there is no order 0). */
  private readonly numbered: (OrderRecord | undefined)[] = [undefined];
  private readonly others = new Map<string, OrderRecord>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(record: OrderRecord): void {
    const number = numberOf(record.orderId);
    if (number !== undefined && number <= this.numbered.length) this.numbered[number] = record;
    else this.others.set(record.orderId, record);
    this.count += 1;
  }

  /** Forgets an order (a venue that keeps only open orders drops each one as it finishes). */
  delete(orderId: string): void {
    const number = numberOf(orderId);
    if (number !== undefined && this.numbered[number]?.orderId === orderId) this.numbered[number] = undefined;
    else if (!this.others.delete(orderId)) return;
    this.count -= 1;
  }

  get(orderId: string): OrderRecord | undefined {
    const number = numberOf(orderId);
    return (number === undefined ? undefined : this.numbered[number]) ?? this.others.get(orderId);
  }

  /** Every order: those in the list by number (the order they were placed in), then the others as they came. */
  *values(): IterableIterator<OrderRecord> {
    for (const record of this.numbered) if (record !== undefined) yield record;
    yield* this.others.values();
  }
}

/** The number a "7" + 17 digits id spells, read digit by digit (a regular expression and a parse cost more, on every order). */
function numberOf(orderId: string): number | undefined {
  if (orderId.length !== DIGITS + 1 || orderId.charCodeAt(0) !== SEVEN) return undefined;
  let number = 0;
  for (let index = 1; index <= DIGITS; index += 1) {
    const digit = orderId.charCodeAt(index) - ZERO_CODE;
    if (digit < 0 || digit > 9) return undefined;
    number = number * 10 + digit;
  }
  return number;
}
