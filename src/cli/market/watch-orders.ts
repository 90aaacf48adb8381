// Streams the account's order updates (trade connection, topic `private`) as JSON lines until interrupted, then
// unsubscribes the topic; `trader orders --watch` runs this.
import type { OrderUpdate } from '../../domain/order.js';
import { ConnectionLostError } from '../../openapi/socket/errors.js';
import type { GlobalFlags } from '../trading/session.js';
import { writeJsonLine } from './format.js';
import { untilInterrupted, withTradeClient } from './socket-session.js';
import { describeState } from './watch-command.js';

export interface WatchOrdersOptions {
  /** Stops the stream (Ctrl-C and SIGTERM stop it too). */
  readonly signal?: AbortSignal;
  /** Where lines go; stdout by default. */
  readonly write?: (text: string) => void;
  /** Called with each update before it is written (tests, callers that count). */
  readonly onUpdate?: (update: OrderUpdate) => void;
}

export async function watchOrderUpdates(flags: GlobalFlags, options: WatchOrdersOptions = {}): Promise<void> {
  await withTradeClient(flags, async (client) => {
    let failure: Error | undefined;
    const stopped = new AbortController();
    const states = client.state$.subscribe((state) => {
      process.stderr.write(`orders: ${describeState(state)}\n`);
      if (state.status === 'closed') failure ??= new ConnectionLostError(state.reason);
    });
    options.signal?.addEventListener('abort', () => stopped.abort(), { once: true });
    const updates = client.orderUpdates().subscribe({
      next: (update) => {
        options.onUpdate?.(update);
        writeJsonLine({ type: 'order', ...update }, options.write);
      },
      complete: () => stopped.abort(),
    });
    // Listen for Ctrl-C before connecting: updates can arrive (and a user can interrupt) while open() settles.
    const interrupted = untilInterrupted(stopped.signal);
    try {
      await client.open();
      await interrupted;
    } finally {
      stopped.abort();
      updates.unsubscribe();
      // Tell the service to stop the pushes before leaving (cmd 17), as a well-behaved client does.
      if (client.connection.state.status === 'online') await client.unsubscribe().catch(() => undefined);
      states.unsubscribe();
    }
    if (failure !== undefined) throw failure;
  });
}
