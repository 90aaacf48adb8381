// The gate a person holds over a `trader run` strategy: paused, or stopped by the kill switch, its new order
// intents are held back (reported as denials with code PAUSED or KILL_SWITCH); cancels always pass.
import { Subject } from 'rxjs';
import type { OrderIntent } from '../domain/intent.js';
import type { IntentGate } from '../runtime/intent-gate.js';
import { gateStrategy } from '../runtime/intent-gate.js';
import type { PreparedStrategy } from '../strategy/prepare.js';

export const GATE_CODES = { paused: 'PAUSED', killSwitch: 'KILL_SWITCH' } as const;

export interface HeldBack {
  readonly strategy: string;
  readonly intent: OrderIntent;
  readonly code: string;
  readonly reason: string;
}

export class ManualGate implements IntentGate {
  paused = false;
  killSwitch: { readonly reason: string; readonly at: number } | undefined;
  readonly heldBack = new Subject<HeldBack>();

  blocked(): string | undefined {
    if (this.killSwitch !== undefined) return `kill switch: ${this.killSwitch.reason}`;
    if (this.paused) return 'paused by hand';
    return undefined;
  }

  /** The strategy with its intents passing through this gate. */
  wrap(strategy: PreparedStrategy): PreparedStrategy {
    return gateStrategy(strategy, this, (intent, reason) =>
      this.heldBack.next({
        strategy: strategy.name,
        intent,
        code: this.killSwitch !== undefined ? GATE_CODES.killSwitch : GATE_CODES.paused,
        reason,
      }),
    );
  }
}
