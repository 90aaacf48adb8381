// The cash-flow ledger: every fill's settlement, fees and shares, in the fill's currency, summing to the change in
// cash exactly.
import { describe, expect, it } from 'vitest';
import { Money } from '../../../src/domain/money.js';
import { dayBar, dayTime, Harness, HK, order, US } from './fixtures.js';

describe('the cash-flow ledger', () => {
  it('books the settlement, the fees and the shares of every fill, and its cash rows sum to the change in cash', () => {
    const sim = new Harness({ fees: { commissionRate: 0.001 }, cash: { HKD: 1_000_000, USD: 1_000_000 } }).bar(
      dayBar(HK, '2024-01-02', 10, 11, 9, 10.5),
    );
    sim.venue.submit(order(HK, 'Buy', 100));
    sim.bar(dayBar(HK, '2024-01-03', 10.6, 11, 10, 10.8));
    sim.venue.submit(order(HK, 'Sell', 40));
    sim.bar(dayBar(US, '2024-01-03', 190, 191, 189, 190));
    sim.venue.submit(order(US, 'Buy', 3));
    sim.bar(dayBar(HK, '2024-01-04', 10.9, 11.2, 10.7, 11)).bar(dayBar(US, '2024-01-04', 191, 192, 190, 191));

    const flows = sim.venue.cashFlows();
    expect(flows.map((flow) => [flow.name, flow.kind, flow.direction, flow.amount.toFixed(), flow.currency])).toEqual([
      ['Buy 700.HK', 'cash', 'out', '1060', 'HKD'],
      ['Fees 700.HK', 'cash', 'out', '1.06', 'HKD'],
      ['Buy 700.HK', 'stock', 'in', '100', 'HKD'],
      ['Sell 700.HK', 'cash', 'in', '436', 'HKD'],
      ['Fees 700.HK', 'cash', 'out', '0.436', 'HKD'],
      ['Sell 700.HK', 'stock', 'out', '40', 'HKD'],
      ['Buy AAPL.US', 'cash', 'out', '573', 'USD'],
      ['Fees AAPL.US', 'cash', 'out', '0.573', 'USD'],
      ['Buy AAPL.US', 'stock', 'in', '3', 'USD'],
    ]);
    for (const currency of ['HKD', 'USD']) {
      const moved = flows
        .filter((flow) => flow.kind === 'cash' && flow.currency === currency)
        .reduce(
          (sum, flow) => (flow.direction === 'in' ? sum.plus(flow.amount as Money) : sum.minus(flow.amount as Money)),
          Money.zero(currency),
        );
      expect(Money.of(1_000_000, currency).plus(moved).toFixed()).toBe(sim.cash(currency));
    }
    expect(flows[0]!.time).toBe(dayTime(HK, '2024-01-03'));
    expect(new Set(flows.map((flow) => flow.flowId)).size).toBe(flows.length);
  });

  it('has no fee rows without fees, and nothing before the first fill', () => {
    const sim = new Harness().bar(dayBar(HK, '2024-01-02', 10, 11, 9, 10.5));
    expect(sim.venue.cashFlows()).toEqual([]);
    sim.venue.submit(order(HK, 'Buy', 100));
    sim.bar(dayBar(HK, '2024-01-03', 10.6, 11, 10, 10.8));
    expect(sim.venue.cashFlows().map((flow) => flow.flowId.split(':').at(-1))).toEqual(['settlement', 'shares']);
  });
});
