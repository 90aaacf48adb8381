// Holds back a strategy's new orders while something outside the runtime says no (the scheduler's outage
// guard, a person's pause or kill switch): order, close and target intents are not sent but recorded as
// intents denied with the gate's code (journal, events, the run's counts), cancels always pass (they only
// reduce risk). The runtime asks it for every intent a strategy emits; a person's flatten does not pass it.
import type { OrderIntent } from '../domain/intent.js';

export interface IntentGate {
  /** Undefined while new orders may go out, else why not (one line). */
  blocked(): string | undefined;
  /** The denial code of the intents it holds back now; ORDERS_HALTED when omitted. */
  code?(): string;
}

/** Order intents held back by a gate without a code of its own are denied with this code. */
export const ORDERS_HALTED = 'ORDERS_HALTED';

/** Why the gate holds the intent back (its denial code and message), or undefined when it may go on. */
export function heldBack(gate: IntentGate | undefined, intent: OrderIntent): { code: string; message: string } | undefined {
  if (gate === undefined || intent.kind === 'cancel') return undefined;
  const reason = gate.blocked();
  return reason === undefined ? undefined : { code: gate.code?.() ?? ORDERS_HALTED, message: reason };
}
