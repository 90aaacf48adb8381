// Order statuses as the service reports them, grouped by what they mean for a trader.

export const ORDER_STATUSES = [
  'NotReported',
  'ReplacedNotReported',
  'ProtectedNotReported',
  'VarietiesNotReported',
  'WaitToNew',
  'NewStatus',
  'WaitToReplace',
  'PendingReplaceStatus',
  'ReplacedStatus',
  'PartialFilledStatus',
  'FilledStatus',
  'WaitToCancel',
  'PendingCancelStatus',
  'RejectedStatus',
  'CanceledStatus',
  'ExpiredStatus',
  'PartialWithdrawal',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Statuses of an order the venue has neither accepted nor rejected yet. */
export const NOT_YET_LIVE_STATUSES: readonly OrderStatus[] = [
  'NotReported',
  'ReplacedNotReported',
  'ProtectedNotReported',
  'VarietiesNotReported',
  'WaitToNew',
];

export function isNotYetLive(status: OrderStatus): boolean {
  return NOT_YET_LIVE_STATUSES.includes(status);
}

/** Statuses after which nothing more can happen to an order. */
export const TERMINAL_STATUSES: readonly OrderStatus[] = [
  'FilledStatus',
  'RejectedStatus',
  'CanceledStatus',
  'ExpiredStatus',
  'PartialWithdrawal',
];

export function isTerminal(status: OrderStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

/** An order that is (or may still become) live at the venue: it can fill, so it counts for risk. */
export function isOpen(status: OrderStatus): boolean {
  return !isTerminal(status);
}
