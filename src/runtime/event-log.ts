// Runtime events as log lines: one structured line per event, at a level that says how much it matters.
import type { Observable, Subscription } from 'rxjs';
import type { RuntimeEvent } from '../execution/events.js';
import type { Logger } from '../log/logger.js';

// Event types logged below 'info': their objects are not even built unless debug is on (backtests log nothing).
const DEBUG_TYPES: ReadonlySet<RuntimeEvent['type']> = new Set(['intent', 'intent-skipped', 'reconciled']);

export function logEvents(events: Observable<RuntimeEvent>, logger: Logger): Subscription {
  return events.subscribe((event) => {
    if (!logger.isLevelEnabled(DEBUG_TYPES.has(event.type) ? 'debug' : 'info')) return;
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
