import { describe, expect, it } from 'vitest';
import { eventForReportedStatus, nextStatus } from '../../src/domain/order-state-machine.js';
import { ORDER_STATUSES, TERMINAL_STATUSES } from '../../src/domain/order-status.js';

describe('order state machine', () => {
  it('walks a normal life: new, partly filled, filled', () => {
    let status = nextStatus('NotReported', 'accept', false)!;
    expect(status).toBe('NewStatus');
    status = nextStatus(status, 'partialFill', true)!;
    expect(status).toBe('PartialFilledStatus');
    expect(nextStatus(status, 'fill', true)).toBe('FilledStatus');
  });

  it('refuses every event on a terminal order, so late reports cannot revive it', () => {
    for (const status of TERMINAL_STATUSES) {
      for (const event of ['accept', 'partialFill', 'fill', 'cancel', 'replace'] as const) {
        expect(nextStatus(status, event, false)).toBeUndefined();
      }
    }
  });

  it('refuses a stale acceptance after a partial fill', () => {
    expect(nextStatus('PartialFilledStatus', 'accept', true)).toBeUndefined();
  });

  it('reports a cancelled order with fills as a partial withdrawal', () => {
    expect(nextStatus('PartialFilledStatus', 'cancel', true)).toBe('PartialWithdrawal');
    expect(nextStatus('NewStatus', 'cancel', false)).toBe('CanceledStatus');
  });

  it('returns a refused cancel to the working status that matches the fills', () => {
    expect(nextStatus('WaitToCancel', 'cancelRejected', false)).toBe('NewStatus');
    expect(nextStatus('WaitToCancel', 'cancelRejected', true)).toBe('PartialFilledStatus');
  });

  it('lets a fill arrive while a cancel is pending', () => {
    expect(nextStatus('PendingCancelStatus', 'fill', true)).toBe('FilledStatus');
  });

  it('maps every reported live or final status to an event the table knows', () => {
    for (const status of ORDER_STATUSES) {
      const event = eventForReportedStatus(status);
      if (event !== undefined) expect(nextStatus('NotReported', event, false) ?? nextStatus('NewStatus', event, false)).toBeDefined();
    }
  });
});
