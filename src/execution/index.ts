// The execution layer: the Broker port, the executor and its book, reconciliation.
export { OrderRefusedError, type Broker, type BuyLimitQuery, type OrderQuery } from './broker.js';
export { ClientOrderIds, DEFAULT_CLIENT_ID_PREFIX } from './client-order-id.js';
export {
  EXECUTION_DENIAL_CODES,
  type DenialInfo,
  type ExecutionCounts,
  type MismatchKind,
  type RuntimeEvent,
  type RuntimeEventType,
} from './events.js';
export { Executor, type ExecutorOptions } from './executor.js';
export { PositionBook } from './position-book.js';
export { PriceBoard } from './price-board.js';
export { Reconciler } from './reconciler.js';
export { RequestTimeoutError } from './with-timeout.js';
