// What a paper run tells the in-process replay it keeps in step with (sim/server/lockstep.ts): settled once
// it has handled every quote and order push the simulator sent it so far and has nothing in flight (intents
// checked on fresh risk figures, orders submitted and answered), so a decision taken at a bar's close
// reaches the venue before the next bar's first tick.
import type { Runtime } from './runtime.js';
import type { VenueLink } from './venue-link.js';

/** Wall milliseconds a heartbeat may take before the replay goes on without it. */
const HEARTBEAT_TIMEOUT_MS = 5_000;

export function paperSettled(link: Pick<VenueLink, 'quotes' | 'trade'>, runtime: Pick<Runtime, 'busy' | 'settled'>): () => Promise<void> {
  return async () => {
    for (;;) {
      // A heartbeat's answer comes after every push sent before it (one ordered stream per connection).
      await Promise.all([link.quotes.connection.heartbeat(HEARTBEAT_TIMEOUT_MS), link.trade.connection.heartbeat(HEARTBEAT_TIMEOUT_MS)]);
      if (!runtime.busy) return;
      await runtime.settled();
    }
  };
}
