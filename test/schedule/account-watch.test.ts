import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/clock/virtual-clock.js';
import { Price } from '../../src/domain/price.js';
import { parseRiskConfig, type RiskLimits } from '../../src/risk/config.js';
import { AccountWatch } from '../../src/schedule/account-watch.js';
import { balance, position, StubAccount } from '../support/schedule/stub-account.js';

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'account-watch-'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

// Monday 4 March 2024, 09:00 in Hong Kong.
const MORNING = Date.parse('2024-03-04T01:00:00Z');

function watch(clock: VirtualClock, account: StubAccount, limits: RiskLimits, trips: string[]): AccountWatch {
  return new AccountWatch({
    clock,
    source: account,
    limits,
    market: 'HK',
    intervalMs: 60_000,
    file: path.join(directory, 'account-day.json'),
    onTrip: (reason) => trips.push(reason),
  });
}

describe('AccountWatch', () => {
  it("shows positions with market value and the PnL of the day per currency against the day's first figure", async () => {
    const clock = new VirtualClock(MORNING);
    const account = new StubAccount();
    account.balanceList = [balance('HKD', '1000000'), balance('USD', '50000')];
    account.positionList = [position('700.HK', '200', '350.2', 'HKD'), position('AAPL.US', '0', '0', 'USD')];
    account.lastPrices.set('700.HK', Price.of('355'));
    const watcher = watch(clock, account, {}, []);
    await watcher.start();

    account.balanceList = [balance('HKD', '1000960'), balance('USD', '49900.5')];
    await clock.advanceByAsync(60_000);
    const snapshot = await watcher.snapshot();
    await watcher.stop();

    expect(snapshot).toEqual({
      asOf: '2024-03-04T01:01:00.000Z',
      positions: [
        { symbol: '700.HK', quantity: '200', averageCost: '350.20', currency: 'HKD', marketValue: '71000.00', unrealizedPnl: '960.00' },
      ],
      pnlToday: [
        { currency: 'HKD', netAssets: '1000960.00', dayStart: '1000000.00', change: '960.00' },
        { currency: 'USD', netAssets: '49900.50', dayStart: '50000.00', change: '-99.50' },
      ],
    });
  });

  it('reports a daily-loss trip once a day, measured from the morning figure even after a restart', async () => {
    const clock = new VirtualClock(MORNING);
    const account = new StubAccount();
    const limits = parseRiskConfig({ dailyLossLimit: 20000 });
    const trips: string[] = [];
    account.balanceList = [balance('HKD', '1000000')];
    const first = watch(clock, account, limits, trips);
    await first.start();
    account.balanceList = [balance('HKD', '990000')];
    await clock.advanceByAsync(60_000);
    await first.stop();

    // A new process in the afternoon: the day started at 1,000,000, not at the figure of the restart.
    clock.advanceTo(Date.parse('2024-03-04T06:00:00Z'));
    account.balanceList = [balance('HKD', '979000')];
    const second = watch(clock, account, limits, trips);
    await second.start();
    await clock.advanceByAsync(120_000);
    const sameDay = [...trips];
    clock.advanceTo(Date.parse('2024-03-05T01:00:00Z'));
    await clock.advanceByAsync(60_000);
    await second.stop();

    expect(sameDay).toEqual(['daily loss 21000 reached dailyLossLimit 20000 (net assets 979000, day start 1000000)']);
    // The next day starts afresh from its own first figure.
    expect(trips).toHaveLength(1);
    expect((await second.snapshot()).pnlToday).toEqual([
      { currency: 'HKD', netAssets: '979000.00', dayStart: '979000.00', change: '0.00' },
    ]);
  });

  it('reports a drawdown from the peak of the schedule', async () => {
    const clock = new VirtualClock(MORNING);
    const account = new StubAccount();
    const trips: string[] = [];
    account.balanceList = [balance('HKD', '1200000')];
    const watcher = watch(clock, account, parseRiskConfig({ maxDrawdown: 0.1 }), trips);
    await watcher.start();

    account.balanceList = [balance('HKD', '1070000')];
    await clock.advanceByAsync(60_000);
    await watcher.stop();

    expect(trips).toEqual([expect.stringMatching(/^drawdown 0\.108333\d* reached maxDrawdown 0\.1 \(net assets 1070000, peak 1200000\)$/)]);
  });

  it('keeps the last figures when the broker cannot be read, and says why when there are none', async () => {
    const clock = new VirtualClock(MORNING);
    const account = new StubAccount();
    account.failing = true;
    const watcher = watch(clock, account, {}, []);
    await watcher.start();
    const failing = await watcher.snapshot().catch((error: Error) => error.message);

    account.failing = false;
    account.balanceList = [balance('HKD', '1000000')];
    await clock.advanceByAsync(60_000);
    account.failing = true;
    await clock.advanceByAsync(60_000);
    const kept = await watcher.snapshot();
    await watcher.stop();

    expect(failing).toBe('broker unreachable');
    expect(kept.asOf).toBe('2024-03-04T01:01:00.000Z');
  });
});
