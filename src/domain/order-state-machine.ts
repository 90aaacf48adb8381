// The order lifecycle: one transition table keyed by (status, event). Anything not in the table is refused,
// which is how stale, duplicated or out-of-order reports are recognised and ignored.
import type { OrderStatus } from './order-status.js';

export const ORDER_EVENTS = [
  'accept',
  'partialFill',
  'fill',
  'reject',
  'requestCancel',
  'cancelPending',
  'cancel',
  'cancelRejected',
  'requestReplace',
  'replacePending',
  'replace',
  'replaceRejected',
  'expire',
] as const;
export type OrderEvent = (typeof ORDER_EVENTS)[number];

type Row = Partial<Record<OrderEvent, OrderStatus>>;

// Events every live order accepts: a venue may skip intermediate reports, so a fill, a rejection,
// a cancel or an expiry can arrive from any non-terminal status.
const FINISHING: Row = {
  partialFill: 'PartialFilledStatus',
  fill: 'FilledStatus',
  cancel: 'CanceledStatus',
  expire: 'ExpiredStatus',
};

const NOT_YET_LIVE: Row = {
  ...FINISHING,
  accept: 'NewStatus',
  reject: 'RejectedStatus',
  requestCancel: 'WaitToCancel',
  cancelPending: 'PendingCancelStatus',
};

const WORKING: Row = {
  ...FINISHING,
  requestCancel: 'WaitToCancel',
  cancelPending: 'PendingCancelStatus',
  requestReplace: 'WaitToReplace',
  replacePending: 'PendingReplaceStatus',
  replace: 'ReplacedStatus',
};

export const ORDER_TRANSITIONS: Readonly<Record<OrderStatus, Row>> = {
  NotReported: NOT_YET_LIVE,
  ReplacedNotReported: NOT_YET_LIVE,
  ProtectedNotReported: NOT_YET_LIVE,
  VarietiesNotReported: NOT_YET_LIVE,
  WaitToNew: NOT_YET_LIVE,
  NewStatus: WORKING,
  ReplacedStatus: WORKING,
  PartialFilledStatus: WORKING,
  WaitToReplace: { ...WORKING, replacePending: 'PendingReplaceStatus', replaceRejected: 'NewStatus' },
  PendingReplaceStatus: { ...WORKING, replaceRejected: 'NewStatus' },
  WaitToCancel: { ...FINISHING, cancelPending: 'PendingCancelStatus', cancelRejected: 'NewStatus' },
  PendingCancelStatus: { ...FINISHING, cancelRejected: 'NewStatus' },
  FilledStatus: {},
  RejectedStatus: {},
  CanceledStatus: {},
  ExpiredStatus: {},
  PartialWithdrawal: {},
};

/**
 * The status after `event`, or undefined when the table refuses the transition.
 * `hasFills` applies the service's conventions: a working order with fills reports PartialFilledStatus,
 * and a cancelled order with fills reports PartialWithdrawal.
 */
export function nextStatus(status: OrderStatus, event: OrderEvent, hasFills: boolean): OrderStatus | undefined {
  const next = ORDER_TRANSITIONS[status][event];
  if (next === undefined || !hasFills) return next;
  if (next === 'NewStatus') return 'PartialFilledStatus';
  if (next === 'CanceledStatus') return 'PartialWithdrawal';
  return next;
}

/** The event a reported status stands for, used when tracking an order from pushes and queries. */
export function eventForReportedStatus(status: OrderStatus): OrderEvent | undefined {
  switch (status) {
    case 'NewStatus':
      return 'accept';
    case 'PartialFilledStatus':
      return 'partialFill';
    case 'FilledStatus':
      return 'fill';
    case 'RejectedStatus':
      return 'reject';
    case 'WaitToCancel':
      return 'requestCancel';
    case 'PendingCancelStatus':
      return 'cancelPending';
    case 'CanceledStatus':
    case 'PartialWithdrawal':
      return 'cancel';
    case 'WaitToReplace':
      return 'requestReplace';
    case 'PendingReplaceStatus':
      return 'replacePending';
    case 'ReplacedStatus':
      return 'replace';
    case 'ExpiredStatus':
      return 'expire';
    default:
      return undefined;
  }
}
