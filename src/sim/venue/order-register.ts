// Values by venue order id. The venue names an order after its sequence number ("7" and 17 digits), so a
// value for one of its orders sits in a list at that number: storing one is an array write instead of an
// insert into a hash map that grows to every order of the run (bench/README.md has what that cost). Other
// ids, and numbers far past the end of the list (which only a restored snapshot can bring), are kept in a
// map beside it.
import type { OrderRecord } from './orders.js';

const DIGITS = 17;
const SEVEN = 55;
const ZERO_CODE = 48;
/** How far past its end the list grows to take a number (orders without a value leave holes). */
const MAX_GAP = 1024;

/** "7" and the zeros an id is padded with. */
const PADDED = `7${'0'.repeat(DIGITS)}`;

/** The id of the venue's `number`th order. */
export function orderIdOf(number: number): string {
  const digits = String(number);
  return PADDED.slice(0, DIGITS + 1 - digits.length) + digits;
}

export class OrderIdTable<Value> {
  /** Values of the venue's own orders at their sequence numbers (there is no order 0). */
  private readonly numbered: (Value | undefined)[] = [undefined];
  private readonly others = new Map<string, Value>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  set(orderId: string, value: Value): void {
    this.setAt(numberOf(orderId), orderId, value);
  }

  /** `set` with the number `orderId` spells (undefined: not a venue number), when the caller knows it. */
  protected setAt(number: number | undefined, orderId: string, value: Value): void {
    if (number !== undefined && number < this.numbered.length + MAX_GAP) {
      while (this.numbered.length < number) this.numbered.push(undefined);
      // Only a restored snapshot puts venue numbers in the map: no lookup there otherwise.
      const wasOther = this.others.size !== 0 && this.others.delete(orderId);
      if (this.numbered[number] === undefined && !wasOther) this.count += 1;
      this.numbered[number] = value;
      return;
    }
    if (!this.others.has(orderId)) this.count += 1;
    this.others.set(orderId, value);
  }

  delete(orderId: string): void {
    const number = numberOf(orderId);
    if (number !== undefined && this.numbered[number] !== undefined) this.numbered[number] = undefined;
    else if (!this.others.delete(orderId)) return;
    this.count -= 1;
  }

  get(orderId: string): Value | undefined {
    const number = numberOf(orderId);
    return (number === undefined ? undefined : this.numbered[number]) ?? this.others.get(orderId);
  }

  /** Every value: those in the list by number (the order they were placed in), then the others as they came. */
  *values(): IterableIterator<Value> {
    for (const value of this.numbered) if (value !== undefined) yield value;
    yield* this.others.values();
  }
}

/** The venue's orders by id. */
export class OrderRegister extends OrderIdTable<OrderRecord> {
  add(record: OrderRecord): void {
    this.set(record.orderId, record);
  }

  /** `add` for the order the venue just named `orderIdOf(number)`: its id need not be read back. */
  addNumbered(number: number, record: OrderRecord): void {
    this.setAt(number, record.orderId, record);
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
