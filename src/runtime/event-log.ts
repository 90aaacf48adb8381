// Runtime events as log lines: one structured line per event, at a level that says how much it matters.
import { Subscription } from 'rxjs';
import type { EventStream } from '../execution/event-stream.js';
import type { RuntimeEventType } from '../execution/events.js';
import type { Logger } from '../log/logger.js';

// The level a logger must have on for each type to be logged: 'debug' for those logged below 'info'. Types
// it has off when the runtime starts are not listened for, so their objects are not even built (backtests
// log nothing, `trader backtest` only warnings of its own).
const GATES: Readonly<Record<RuntimeEventType, 'debug' | 'info'>> = {
  intent: 'debug',
  'intent-skipped': 'debug',
  denial: 'info',
  'order-submitted': 'info',
  'order-updated': 'info',
  fill: 'info',
  'order-unconfirmed': 'info',
  'strategy-failed': 'info',
  'reconciliation-mismatch': 'info',
  reconciled: 'debug',
};

export function logEvents(events: EventStream, logger: Logger): Subscription {
  const types = (Object.keys(GATES) as RuntimeEventType[]).filter((type) => logger.isLevelEnabled(GATES[type]));
  if (types.length === 0) return Subscription.EMPTY;
  return events.listen(types, (event) => {
    if (!logger.isLevelEnabled(GATES[event.type])) return;
    switch (event.type) {
      case 'intent':
        logger.debug({ strategy: event.strategy, intentId: event.intentId, intent: event.intent }, 'intent');
        break;
      case 'intent-skipped':
        logger.debug({ strategy: event.strategy, intentId: event.intentId, reason: event.reason }, 'intent needs no order');
        break;
      case 'denial':
        logger.warn(
          { strategy: event.strategy, intentId: event.intentId, code: event.denial.code, figures: event.denial.figures },
          `denied: ${event.denial.message}`,
        );
        break;
      case 'order-submitted': {
        const { request } = event;
        logger.info(
          {
            strategy: event.strategy,
            clientOrderId: event.clientOrderId,
            symbol: request.symbol,
            side: request.side,
            orderType: request.orderType,
            quantity: request.quantity,
            price: request.price,
            tag: event.tag,
          },
          'order submitted',
        );
        break;
      }
      case 'order-updated':
        logger.info(
          {
            strategy: event.strategy,
            clientOrderId: event.clientOrderId,
            orderId: event.orderId,
            from: event.from,
            status: event.status,
            source: event.source,
            message: event.message || undefined,
          },
          `order ${event.status}`,
        );
        break;
      case 'fill':
        logger.info(
          {
            strategy: event.strategy,
            clientOrderId: event.clientOrderId,
            symbol: event.fill.symbol,
            side: event.fill.side,
            quantity: event.fill.quantity,
            price: event.fill.price,
            position: event.position.quantity,
            tag: event.tag,
          },
          'fill',
        );
        break;
      case 'order-unconfirmed':
        logger.warn({ strategy: event.strategy, clientOrderId: event.clientOrderId }, `order unconfirmed: ${event.reason}`);
        break;
      case 'strategy-failed':
        logger.error({ strategy: event.strategy, source: event.source }, event.error);
        break;
      case 'reconciliation-mismatch':
        logger.warn({ kind: event.kind, ...event.details }, `reconciliation: ${event.message}`);
        break;
      case 'reconciled':
        logger.debug({ openOrders: event.openOrders, positions: event.positions, stable: event.stable }, 'reconciled with the broker');
        break;
    }
  });
}
