// In-process clients the replay keeps in step with (the runtime of a paper run sharing the simulator's
// process). Before a tick that ends a bar under way (or that a market-clock timer is due before), the replay
// crosses the market-clock timers due by the tick's time, the clock standing at each one's instant (bars close,
// strategies decide), and waits until every client has settled (handled the pushes sent so far, nothing in
// flight: intents checked, orders submitted and answered). What a client decided on a bar therefore reaches
// the venue before the next bar's first tick, as it does live, where the time between bars is real. After the
// last tick the replay crosses to the end of the last bars the same way, so clients see them close. Remote
// clients cannot say when they are done: without in-process clients the replay never waits.
import type { Logger } from '../../log/logger.js';
import type { MarketReplay, ReplayTick } from '../venue/index.js';
import type { MarketClock } from './market/market-clock.js';

/** Resolves once the client has handled every push sent to it so far and has nothing in flight. */
export type Settled = () => Promise<void>;

export class Lockstep {
  private readonly clients = new Set<{ readonly settled: Settled }>();

  constructor(
    replay: MarketReplay,
    private readonly clock: MarketClock,
    private readonly logger: Logger,
  ) {
    replay.setGate({
      beforeTick: (next, endsBar) => this.gate(next, endsBar),
      atEnd: (barsEnd) => this.end(barsEnd),
    });
  }

  /** Keeps the replay in step with a client until the returned function is called. */
  join(settled: Settled): () => void {
    const client = { settled };
    this.clients.add(client);
    if (this.clients.size === 1) this.clock.setLockstep(true);
    return () => {
      if (this.clients.delete(client) && this.clients.size === 0) this.clock.setLockstep(false);
    };
  }

  private gate(next: ReplayTick, endsBar: boolean): Promise<void> | undefined {
    if (this.clients.size === 0 || !(endsBar || this.clock.dueBy(next.time))) return undefined;
    return this.clock.crossTo(next.time, () => this.settle());
  }

  /** The data's end ends the bars under way: they close at their end, as the next tick would have closed them. */
  private end(barsEnd: number): Promise<void> | undefined {
    if (this.clients.size === 0) return undefined;
    return this.clock.crossTo(Number.isFinite(barsEnd) ? barsEnd : Number.NEGATIVE_INFINITY, () => this.settle());
  }

  private async settle(): Promise<void> {
    await Promise.all(
      [...this.clients].map((client) =>
        client
          .settled()
          .catch((error: unknown) =>
            this.logger.warn({ error: error instanceof Error ? error.message : String(error) }, 'a client of the replay did not settle'),
          ),
      ),
    );
  }
}
