// The run's two long connections as log lines and reactions: a state change is logged once (warn while a
// link is down), the trade connection coming back triggers a reconciliation pass (pushes sent while it was
// down are lost), and a connection closed for good ends the session.
import { merge, map, type Observable, type Subscription } from 'rxjs';
import type { Logger } from '../log/logger.js';
import type { ConnectionState } from '../openapi/socket/connection-state.js';

export type ConnectionName = 'quote' | 'trade';

export interface ConnectionReport {
  readonly connection: ConnectionName;
  readonly state: ConnectionState;
}

export interface ConnectionWatchOptions {
  readonly quote: Observable<ConnectionState>;
  readonly trade: Observable<ConnectionState>;
  readonly logger: Logger;
  /** After the trade connection is back: the reconciliation pass. */
  readonly onTradeRestored: () => Promise<void>;
  /** A connection closed while the session was not stopping. */
  readonly onClosed: (report: ConnectionReport) => void;
  readonly stopping: () => boolean;
}

export function connectionReports(quote: Observable<ConnectionState>, trade: Observable<ConnectionState>): Observable<ConnectionReport> {
  return merge(
    quote.pipe(map((state): ConnectionReport => ({ connection: 'quote', state }))),
    trade.pipe(map((state): ConnectionReport => ({ connection: 'trade', state }))),
  );
}

export function watchConnections(options: ConnectionWatchOptions): Subscription {
  const { logger } = options;
  const last = new Map<ConnectionName, string>();
  return connectionReports(options.quote, options.trade).subscribe((report) => {
    const { connection, state } = report;
    // BehaviorSubjects replay the current state; a repeat of the same status says nothing new.
    const key = state.status === 'reconnecting' ? `reconnecting:${state.attempt}` : state.status;
    if (last.get(connection) === key) return;
    last.set(connection, key);
    switch (state.status) {
      case 'connecting':
        break;
      case 'online':
        logger.info({ connection }, `${connection} connection ${state.reconnected ? 'restored' : 'online'}`);
        if (state.reconnected && connection === 'trade') {
          logger.info('reconciling with the broker: order pushes sent while the trade connection was down are lost');
          options
            .onTradeRestored()
            .catch((error: unknown) =>
              logger.warn({ error: error instanceof Error ? error.message : String(error) }, 'reconciliation after the reconnect failed'),
            );
        }
        break;
      case 'reconnecting':
        logger.warn(
          { connection, attempt: state.attempt, reason: state.reason, retryInMs: state.retryInMs },
          `${connection} connection lost; reconnecting`,
        );
        break;
      case 'closed':
        if (options.stopping()) break;
        logger.error({ connection, reason: state.reason, closeCode: state.closeCode }, `${connection} connection closed for good`);
        options.onClosed(report);
        break;
    }
  });
}
