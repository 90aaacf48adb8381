// Walk-forward: windows on the calendar, each training window optimized, its best params tested on the
// next window, and the test windows' equity stitched into one out-of-sample curve.
import { trialSettings } from '../support/research/trial-settings.js';
import { describe, expect, it } from 'vitest';
import { backtestData } from '../../src/backtest/data.js';
import type { TrialExecutor } from '../../src/research/executor.js';
import { parseObjective } from '../../src/research/objective.js';
import { optimize, planTrials } from '../../src/research/optimize.js';
import { rankedOutcomes } from '../../src/research/ranking.js';
import { parseParamSpace } from '../../src/research/param-space.js';
import { prepareTrial, runTrial, runTrialBacktest, windowOf } from '../../src/research/trial.js';
import { dataEnd, parseSpan, walkForward, walkForwardWindows } from '../../src/research/walkforward.js';
import { windowLabel } from '../../src/research/window-dates.js';
import { localDate, startOfLocalDay } from '../../src/domain/time-zone.js';
import smaCrossover from '../../strategies/sma-crossover.js';
import { filter, map, merge } from 'rxjs';
import { AAPL, wavingDays } from '../support/run/candles.js';

const DATA = backtestData([{ symbol: AAPL, period: 'day', source: 'generated', candles: wavingDays(520) }]);
const SETTINGS = trialSettings(4);
const context = { definition: smaCrossover as never, data: DATA, risk: undefined };
const inProcess: TrialExecutor = {
  async run(trials, onOutcome, signal) {
    for (const trial of trials) if (!signal.aborted) onOutcome(await runTrial(context, SETTINGS, trial));
  },
  async close() {},
};

/** Rolling windows over DATA. */
function windowsOver(train: string, test: string, step: string) {
  const first = DATA.series[0]!.candles[0]!.time;
  const last = DATA.series[0]!.candles.at(-1)!.time;
  return walkForwardWindows(
    first,
    last,
    parseSpan(train, '--train'),
    parseSpan(test, '--test'),
    parseSpan(step, '--step'),
    false,
    undefined,
    'America/New_York',
  );
}

/** walkForward of sma-crossover over DATA on a grid of `space`, best total return chosen. */
function walkOver(windows: ReturnType<typeof walkForwardWindows>, space: readonly string[]) {
  return walkForward({
    definition: smaCrossover as never,
    data: DATA,
    risk: undefined,
    settings: SETTINGS,
    search: { space: parseParamSpace([...space]), search: 'grid', seed: 1 },
    rules: { objective: parseObjective('totalReturn'), constraints: [], minTrades: 0 },
    windows,
    executor: inProcess,
  });
}

describe('walk-forward windows', () => {
  it('rolls training and test windows on by the step, or anchors training at the first bar', () => {
    const first = Date.UTC(2000, 0, 1);
    const last = Date.UTC(2005, 5, 30);
    const rolling = walkForwardWindows(
      first,
      last,
      parseSpan('3y', '--train'),
      parseSpan('1y', '--test'),
      parseSpan('1y', '--step'),
      false,
    );
    expect(rolling.map((window) => new Date(window.train.from).getUTCFullYear())).toEqual([2000, 2001, 2002]);
    expect(rolling.map((window) => new Date(window.test.from).getUTCFullYear())).toEqual([2003, 2004, 2005]);
    expect(rolling.at(-1)!.test.to).toBe(last + 1);
    const anchored = walkForwardWindows(
      first,
      last,
      parseSpan('3y', '--train'),
      parseSpan('1y', '--test'),
      parseSpan('1y', '--step'),
      true,
    );
    expect(anchored.every((window) => window.train.from === first)).toBe(true);
    expect(() => parseSpan('3 years', '--train')).toThrow(/--train: a length like 3y/);
  });

  it("ends the last test window with the data's last bar whole: a day's test over daily bars is a day, not cut short", () => {
    const day = 86_400_000;
    const first = Date.UTC(2020, 3, 1);
    const last = Date.UTC(2020, 3, 17);
    const windows = walkForwardWindows(
      first,
      last,
      parseSpan('5d', '--train'),
      parseSpan('1d', '--test'),
      parseSpan('1d', '--step'),
      false,
      dataEnd(last, 'day'),
    );
    const lastTest = windows.at(-1)!.test;
    expect(lastTest).toEqual({ from: last, to: last + day });
    expect(windows.every((window) => window.test.to - window.test.from === day)).toBe(true);
    expect(dataEnd(last, '60m')).toBe(last + 3_600_000);
    expect(dataEnd(last, 'month')).toBe(Date.UTC(2020, 4, 17));
    expect(dataEnd(last, 'quarter')).toBe(Date.UTC(2020, 6, 17));
  });
  it('counts months from the first day, a day the month lacks taken as its last: test windows neither overlap nor leave a gap', () => {
    const day = (text: string): number => Date.parse(`${text}T00:00:00Z`);
    const label = (time: number): string => new Date(time).toISOString().slice(0, 10);
    const months = walkForwardWindows(
      day('2000-01-31'),
      day('2001-12-31'),
      parseSpan('1y', '--train'),
      parseSpan('1m', '--test'),
      parseSpan('1m', '--step'),
      false,
    );
    expect(months.slice(0, 4).map(({ train, test }) => [train, test].map((range) => windowLabel(range, label)))).toEqual([
      ['2000-01-31..2001-01-30', '2001-01-31..2001-02-27'],
      ['2000-02-29..2001-02-27', '2001-02-28..2001-03-30'],
      ['2000-03-31..2001-03-30', '2001-03-31..2001-04-29'],
      ['2000-04-30..2001-04-29', '2001-04-30..2001-05-30'],
    ]);
    const leap = walkForwardWindows(
      day('2000-02-29'),
      day('2003-12-31'),
      parseSpan('18m', '--train'),
      parseSpan('3m', '--test'),
      parseSpan('3m', '--step'),
      false,
    );
    expect(leap.slice(0, 3).map(({ test }) => windowLabel(test, label))).toEqual([
      '2001-08-29..2001-11-28',
      '2001-11-29..2002-02-27',
      '2002-02-28..2002-05-28',
    ]);
    for (const windows of [months, leap])
      for (const [index, window] of windows.entries()) if (index > 0) expect(window.test.from).toBe(windows[index - 1]!.test.to);
  });

  it("cuts windows at midnight in the market's zone, whatever the season or the zone's offset from UTC", () => {
    const newYork = (text: string): number => startOfLocalDay(text, 'America/New_York');
    const inNewYork = (time: number): string => localDate(time, 'America/New_York');
    // Daily bars start at local midnight (05:00 UTC in winter); hourly ones at 09:00 local.
    for (const first of [newYork('1998-01-02'), newYork('2000-01-03') + 9 * 3_600_000]) {
      const windows = walkForwardWindows(
        first,
        newYork('2004-12-31'),
        parseSpan('3y', '--train'),
        parseSpan('1y', '--test'),
        parseSpan('6m', '--step'),
        false,
        undefined,
        'America/New_York',
      );
      // A summer boundary too: midnight of EDT, 04:00 UTC, so the day's bar is the test window's, not the training's.
      expect(windows.every(({ train, test }) => [train.from, train.to, test.from].every((time) => time === newYork(inNewYork(time))))).toBe(
        true,
      );
      expect(windows.map(({ test }) => inNewYork(test.from)).slice(0, 2)).toEqual(
        first < newYork('1999-01-01') ? ['2001-01-02', '2001-07-02'] : ['2003-01-03', '2003-07-03'],
      );
    }
    // Hong Kong's midnight is 16:00 UTC the day before: a month from Jan 31 is still Feb 29 there.
    const hongKong = walkForwardWindows(
      startOfLocalDay('2000-01-31', 'Asia/Hong_Kong'),
      startOfLocalDay('2001-12-31', 'Asia/Hong_Kong'),
      parseSpan('1m', '--train'),
      parseSpan('1m', '--test'),
      parseSpan('1m', '--step'),
      false,
      undefined,
      'Asia/Hong_Kong',
    );
    expect(windowLabel(hongKong[0]!.test, (time) => localDate(time, 'Asia/Hong_Kong'))).toBe('2000-02-29..2000-03-30');
  });
});

describe('walkForward', () => {
  it('tests each window with the best params of its training window and stitches the test equity', async () => {
    const space = parseParamSpace(['fast=2:6:2', 'slow=8:16:4']);
    const rules = { objective: parseObjective('totalReturn'), constraints: [], minTrades: 0 };
    const first = DATA.series[0]!.candles[0]!.time;
    const last = DATA.series[0]!.candles.at(-1)!.time;
    const windows = walkForwardWindows(
      first,
      last,
      parseSpan('180d', '--train'),
      parseSpan('120d', '--test'),
      parseSpan('120d', '--step'),
      false,
    );
    expect(windows.length).toBeGreaterThanOrEqual(3);
    const search = { space, search: 'grid' as const, seed: 1 };
    const result = await walkForward({
      definition: smaCrossover as never,
      data: DATA,
      risk: undefined,
      settings: SETTINGS,
      search,
      rules,
      windows,
      executor: inProcess,
    });

    const plan = planTrials(smaCrossover as never, SETTINGS, search);
    for (const [index, window] of result.windows.entries()) {
      // The training window alone (warmed up on the bars before it, as every window is).
      const train = windows[index]!.train;
      const alone = await optimize({
        plan,
        rules,
        executor: {
          run: async (trials, onOutcome) => {
            for (const trial of trials) onOutcome(await runTrial(context, SETTINGS, { ...trial, range: train }));
          },
          close: async () => {},
        },
      });
      expect(window.chosen?.params).toEqual(rankedOutcomes(alone.outcomes, alone.ranking)[0]?.params);
      expect(window.testEquity.times.every((time) => time >= window.window.test.from && time < window.window.test.to)).toBe(true);
    }
    const points = result.windows.reduce((sum, window) => sum + window.testEquity.times.length, 0);
    expect(result.stitched.times).toHaveLength(points);
    // Each window's curve continues from the previous window's end.
    const firstWindow = result.windows[0]!.testEquity;
    const second = result.windows[1]!.testEquity;
    const joint = firstWindow.times.length;
    expect(result.stitched.equity[joint]! / result.stitched.equity[joint - 1]!).toBeCloseTo(second.equity[0]! / 100_000, 12);
    const product = result.windows.reduce((value, window) => value * (window.testEquity.equity.at(-1)! / 100_000), 1);
    expect(result.outOfSample.totalReturn).toBeCloseTo(product - 1, 10);
    expect(result.stitched.times.every((time, index) => index === 0 || time > result.stitched.times[index - 1]!)).toBe(true);
  }, 120_000);

  it('holds cash over a test window whose training window had no trial that qualified, instead of leaving its bars out', async () => {
    const windows = windowsOver('180d', '120d', '120d');
    const result = await walkForward({
      definition: smaCrossover as never,
      data: DATA,
      risk: undefined,
      settings: SETTINGS,
      search: { space: parseParamSpace(['fast=2:6:2', 'slow=8:16:4']), search: 'grid', seed: 1 },
      rules: { objective: parseObjective('totalReturn'), constraints: [], minTrades: 1_000_000 },
      windows,
      executor: inProcess,
    });
    expect(result.windows.every((window) => window.chosen === undefined && window.test === undefined)).toBe(true);
    const barTimes = DATA.series[0]!.candles.map((candle) => candle.time);
    const tested = barTimes.filter((time) => windows.some((window) => time >= window.test.from && time < window.test.to));
    expect(tested.length).toBeGreaterThan(200);
    expect(result.stitched.times).toEqual(tested);
    expect(new Set(result.stitched.equity)).toEqual(new Set([100_000]));
    expect(result.outOfSample).toMatchObject({ totalReturn: 0, maxDrawdown: 0 });
  }, 120_000);

  it("holds a test run whose strategy threw at its last equity to the window's end: every tested bar is in the stitched curve", async () => {
    const windows = windowsOver('180d', '120d', '120d');
    const throwsFrom = windows[1]!.test.from + 30 * 86_400_000;
    const failing: typeof smaCrossover = {
      ...smaCrossover,
      name: 'sma-crossover-failing',
      run: (ctx) =>
        merge(
          smaCrossover.run(ctx),
          ctx.candles().pipe(
            filter((candle) => candle.time >= throwsFrom),
            map((): never => {
              throw new Error('no bars after the cut');
            }),
          ),
        ),
    };
    const failingContext = { definition: failing as never, data: DATA, risk: undefined };
    const result = await walkForward({
      definition: failing as never,
      data: DATA,
      risk: undefined,
      settings: SETTINGS,
      search: { space: parseParamSpace(['fast=4', 'slow=12']), search: 'grid', seed: 1 },
      rules: { objective: parseObjective('totalReturn'), constraints: [], minTrades: 0 },
      windows,
      executor: {
        async run(trials, onOutcome, signal) {
          for (const trial of trials) if (!signal.aborted) onOutcome(await runTrial(failingContext, SETTINGS, trial));
        },
        async close() {},
      },
    });
    expect(JSON.stringify(result.windows[1]!.test?.metrics.failure)).toContain('no bars after the cut');
    const barTimes = DATA.series[0]!.candles.map((candle) => candle.time);
    const tested = barTimes.filter((time) => windows.some((window) => time >= window.test.from && time < window.test.to));
    expect(result.stitched.times).toEqual(tested);
    const { test } = windows[1]!;
    const held = result.stitched.times.flatMap((time, index) =>
      time > throwsFrom && time < test.to ? [result.stitched.equity[index]!] : [],
    );
    expect(held.length).toBeGreaterThan(60);
    expect(new Set(held).size).toBe(1);
  }, 120_000);

  it('warms each test window up on the bars before it: with the chosen params it trades as a run over all the data does', async () => {
    const windows = windowsOver('180d', '120d', '120d');
    const result = await walkOver(windows, ['fast=4', 'slow=12']);
    const strategy = prepareTrial(smaCrossover as never, SETTINGS, { fast: '4', slow: '12' });
    const whole = await runTrialBacktest(strategy, { data: DATA, risk: undefined }, SETTINGS);
    let compared = 0;
    for (const { window, test } of result.windows) {
      const inWindow = whole.record.fills.filter((fill) => fill.time >= window.test.from && fill.time < window.test.to);
      // Comparable where the whole run is flat when the window starts, its decision on the bar before the
      // window (a fill on its first bar) included: a test window starts flat and trades only on its own bars.
      const held = whole.record.fills
        .filter((fill) => fill.time <= window.test.from)
        .reduce((sum, fill) => sum + (fill.side === 'Buy' ? 10 : -10), 0);
      if (held !== 0 || inWindow[0]?.time === window.test.from) continue;
      const run = await runTrialBacktest(strategy, { ...windowOf(DATA, window.test), risk: undefined }, SETTINGS);
      expect(run.record.fills.map((fill) => [fill.time, fill.side, fill.price.toString()])).toEqual(
        inWindow.map((fill) => [fill.time, fill.side, fill.price.toString()]),
      );
      // And walkForward's own test of the window made those fills.
      expect(test?.metrics.fills).toBe(inWindow.length);
      compared += inWindow.length;
    }
    expect(compared).toBeGreaterThan(0);
  }, 60_000);

  it('annualises the stitched CAGR over the time the test windows cover, as its Sharpe ratio counts only their bars', async () => {
    // A 60-day test every 120 days: half the calendar is in no test window.
    const windows = windowsOver('120d', '60d', '120d');
    const result = await walkOver(windows, ['fast=2:6:2', 'slow=8:16:4']);
    const { times, equity } = result.stitched;
    let covered = times.at(-1)! - times[0]!;
    for (const [index, window] of windows.entries()) if (index > 0) covered -= window.test.from - windows[index - 1]!.test.to;
    expect(covered).toBeLessThan(0.6 * (times.at(-1)! - times[0]!));
    const years = covered / (365.25 * 86_400_000);
    expect(result.outOfSample.totalReturn).not.toBe(0);
    expect(result.outOfSample.cagr).toBeCloseTo((equity.at(-1)! / 100_000) ** (1 / years) - 1, 12);
  }, 60_000);

  it('stitches overlapping test windows (a step shorter than the test) without counting a bar twice', async () => {
    const windows = windowsOver('180d', '120d', '60d');
    expect(windows[1]!.test.from).toBeLessThan(windows[0]!.test.to);
    const result = await walkOver(windows, ['fast=2:6:2', 'slow=8:16:4']);
    const { times, equity } = result.stitched;
    expect(times.every((time, index) => index === 0 || time > times[index - 1]!)).toBe(true);
    // Each window contributes its test bars up to the next window's test start, each piece continuing from
    // the previous piece's end.
    let at = 0;
    let scale = 1;
    for (const [index, { testEquity }] of result.windows.entries()) {
      const until = result.windows[index + 1]?.window.test.from ?? Number.POSITIVE_INFINITY;
      const piece = testEquity.times.filter((time) => time < until).length;
      expect(times.slice(at, at + piece)).toEqual(testEquity.times.slice(0, piece));
      for (let point = 0; point < piece; point += 1) expect(equity[at + point]).toBeCloseTo(testEquity.equity[point]! * scale, 6);
      if (piece > 0) scale *= testEquity.equity[piece - 1]! / 100_000;
      at += piece;
    }
    expect(at).toBe(times.length);
    const bars = new Set(DATA.series[0]!.candles.map((candle) => candle.time).filter((time) => time >= windows[0]!.test.from));
    expect(times.length).toBe(bars.size);
    expect(result.outOfSample.totalReturn).toBeCloseTo(scale - 1, 10);
  }, 120_000);
});
