// The venue's orders by id. The venue names an order after its sequence number ("7" and 17 digits), so
// its own orders sit in a list at that number: registering one is an array write instead of an insert
// into a hash map that grows to every order of the run, and finding one reads the number back from the
// id. Other ids (of another form, or numbers past the end of the list, which only a restored snapshot can
// bring) are kept in a map beside it.
import type { OrderRecord } from './orders.js';

const DIGITS = 17;
const OWN_ID = /^7\d{17}$/;

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

function numberOf(orderId: string): number | undefined {
  return OWN_ID.test(orderId) ? Number(orderId.slice(1)) : undefined;
}
