// The gate a person holds over a `trader run` strategy: paused, or stopped by the kill switch, its new order
// intents are held back (recorded as intents denied with code PAUSED or KILL_SWITCH); cancels always pass.
import type { IntentGate } from '../runtime/intent-gate.js';

export const GATE_CODES = { paused: 'PAUSED', killSwitch: 'KILL_SWITCH' } as const;

/**
 * Give it to the session (`gate`), which asks it before each of the strategy's intents goes on; who closes it
 * tells the session's runtime (recheckGate), or an intent already waiting for its risk figures holds its place.
 */
export class ManualGate implements IntentGate {
  paused = false;
  killSwitch: { readonly reason: string; readonly at: number } | undefined;

  blocked(): string | undefined {
    if (this.killSwitch !== undefined) return `kill switch: ${this.killSwitch.reason}`;
    if (this.paused) return 'paused by hand';
    return undefined;
  }

  code(): string {
    return this.killSwitch !== undefined ? GATE_CODES.killSwitch : GATE_CODES.paused;
  }
}
