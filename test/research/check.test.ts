// `trader check`'s four checks against an honest strategy and deliberately dishonest ones: one that peeks
// at the future, one that is nondeterministic, one whose declared warm-up is too short. Parity replays the
// bars on the real simulator over 127.0.0.1, as `trader run` does in paper mode.
import { describe, expect, it } from 'vitest';
import { backtestData, sliceData } from '../../src/backtest/data.js';
import { PARITY_DECISIONS, parityStretch, runChecks, type CheckInput } from '../../src/research/check/checks.js';
import { paperDecisions } from '../../src/research/check/paper-replay.js';
import { prepareStrategy } from '../../src/strategy/prepare.js';
import { defineStrategy, type StrategyDefinition } from '../../src/strategy/define.js';
import type { ParamDefaults } from '../../src/strategy/params.js';
import { wavingDays } from '../support/run/candles.js';
import honest from './strategies/honest.js';
import smaEverySymbol from '../../bench/support/sma-every-symbol.js';
import peeking from './strategies/peeking.js';
import random from './strategies/random.js';
import moduleCooldown from './strategies/module-cooldown.js';
import shortWarmup from './strategies/short-warmup.js';
import quiet from './strategies/quiet.js';
import smaBracket from '../../strategies/sma-bracket.js';
import failsAtFast4 from './strategies/fails-at-fast-4.js';
import rsiMeanReversion from '../../strategies/rsi-mean-reversion.js';
import echoBars from './strategies/echo-bars.js';
import everySymbol from './strategies/every-symbol.js';
import echoWeeks from './strategies/echo-weeks.js';
import weeklyCrossover from './strategies/weekly-crossover.js';
import onQuotesDefinition from '../support/backtest/strategies/on-quotes.js';
import { localTime } from '../support/market-bars.js';
import type { Candle } from '../../src/domain/candle.js';
import { corporateActionToJson, type CorporateAction } from '../../src/domain/corporate-action.js';
import { Fixed } from '../../src/domain/fixed.js';
import { AAPL, dayBar, scripted } from '../support/backtest/scripted.js';

const onQuotes = { ...onQuotesDefinition, symbols: ['AAPL.US'] };

const DATA = backtestData([{ symbol: 'AAPL.US' as never, period: 'day', source: 'generated', candles: wavingDays(160) }]);

/** AAPL.US hour bars starting at `starts` (New York) on the weekdays from 2024-03-04, prices on a wave. */
function hourBars(starts: readonly string[]) {
  const candles: Candle[] = [];
  for (let day = 4; day <= 29; day += 1) {
    if ([0, 6].includes(new Date(Date.UTC(2024, 2, day)).getUTCDay())) continue;
    for (const start of starts) {
      const close = 100 + 10 * Math.sin(candles.length / 5);
      const open = close - Math.cos(candles.length);
      candles.push({
        symbol: 'AAPL.US' as never,
        period: '60m',
        time: localTime('AAPL.US' as never, `2024-03-${String(day).padStart(2, '0')} ${start}`),
        open,
        high: Math.max(open, close) + 0.5,
        low: Math.min(open, close) - 0.5,
        close,
        volume: 1_000 + candles.length,
      });
    }
  }
  return backtestData([{ symbol: 'AAPL.US' as never, period: '60m', source: 'generated', candles }]);
}

function input(definition: unknown, parityBars = 40): CheckInput {
  return {
    strategy: prepareStrategy(definition as StrategyDefinition<ParamDefaults>),
    data: DATA,
    risk: undefined,
    settings: { strategyFile: 'test', symbols: ['AAPL.US'], cash: '1000000', venue: {}, riskFreeRate: 0, blocks: 2, fixed: {} },
    cuts: 5,
    seed: 3,
    parityBars,
    paperDecisions: (strategy, data) => paperDecisions(strategy, data, { cash: '1000000' }),
  };
}

describe('trader check', () => {
  it('passes an honest strategy on all four checks', async () => {
    const results = await runChecks(input(honest));
    expect(results.map((result) => [result.check, result.passed])).toEqual([
      ['look-ahead', true],
      ['warm-up', true],
      ['determinism', true],
      ['parity', true],
    ]);
    expect(results[3]!.detail).toMatch(/backtest [1-9]\d* decisions, paper replay [1-9]/);
  }, 120_000);

  it('reports its runs as they finish, against the most it planned', async () => {
    const seen: string[] = [];
    const progress = { start: (total: number) => seen.push(`of ${total}`), update: (done: number) => seen.push(String(done)) };
    await runChecks({ ...input(honest), progress });
    // The full run, 5 cuts (fewer if two coincide), 8 pairs of warm-up runs, determinism, parity's two runs.
    expect(seen[0]).toBe('of 25');
    const done = seen.slice(1).map(Number);
    expect(done).toEqual(Array.from({ length: done.length }, (_, index) => index + 1));
    expect(done.length).toBeGreaterThan(20);
    expect(done.length).toBeLessThanOrEqual(25);
  }, 120_000);

  it('fails first of all a strategy that throws on the data, saying where: the checks cover only the bars before', async () => {
    const strategy = prepareStrategy(failsAtFast4, { params: { fast: 4, slow: 8 } });
    const results = await runChecks({ ...input(failsAtFast4), strategy }, ['determinism']);
    expect(results.map((result) => [result.check, result.passed])).toEqual([
      ['run', false],
      ['determinism', true],
    ]);
    expect(results[0]!.detail).toMatch(
      /^the strategy threw: no crosses at fast 4 \(at .*fails-at-fast-4\.ts:14:\d+, on the AAPL\.US day bar of .*\); the checks below cover only the bars before it$/,
    );
    const [honestOnly] = await runChecks(input(honest), ['determinism']);
    expect(honestOnly!.check).toBe('determinism');
  });

  it('cuts the other checks to the bars before the throw (their runs would all fail there)', async () => {
    const strategy = prepareStrategy(failsAtFast4, { params: { fast: 4, slow: 8 } });
    const [run, lookAhead, determinism] = await runChecks({ ...input(failsAtFast4), strategy }, ['look-ahead', 'determinism']);
    const before = Number(/\(index (\d+)\)/.exec(run!.detail)![1]);
    expect(before).toBeLessThan(DATA.series[0]!.candles.length - 1);
    // Too few bars before the throw to cut after the declared warm-up: said, not passed on one cut.
    expect(lookAhead).toMatchObject({ skipped: true });
    expect(lookAhead!.detail).toContain(`leaves no bar to cut among ${before}`);
    expect(determinism!.detail).toContain(`two runs over ${before} bars`);
  });

  it('fails a strategy that peeks at the future on look-ahead, naming the first differing decision', async () => {
    const [lookAhead] = await runChecks(input(peeking), ['look-ahead']);
    expect(lookAhead!.passed).toBe(false);
    expect(lookAhead!.difference!.time).toBeGreaterThanOrEqual(DATA.series[0]!.candles[0]!.time);
    expect(lookAhead!.difference!.actual).toMatch(/tomorrow is higher/);
  });

  it('fails a nondeterministic strategy on determinism', async () => {
    const [determinism] = await runChecks(input(random), ['determinism']);
    expect(determinism!.passed).toBe(false);
    expect(determinism!.difference).toBeDefined();
  });

  it('fails on determinism a strategy keeping state in its module between runs, as optimize runs trials one after another', async () => {
    const results = await runChecks(input(moduleCooldown), ['look-ahead', 'determinism']);
    expect(results.map((result) => [result.check, result.passed, result.skipped === true])).toEqual([
      ['look-ahead', true, true],
      ['determinism', false, false],
    ]);
    expect(results[1]!.detail).toMatch(
      /^two runs over 160 bars in one process differ: the strategy draws something new each run \(Math\.random, the time\) or keeps state between runs/,
    );
    expect(results[1]!.difference).toBeDefined();
  });

  it('judges nothing else of a nondeterministic strategy: its look-ahead and warm-up runs would differ anyway', async () => {
    const results = await runChecks(input(random), ['look-ahead', 'warm-up', 'determinism']);
    expect(results.map((result) => [result.check, result.passed, result.skipped === true])).toEqual([
      ['look-ahead', true, true],
      ['warm-up', true, true],
      ['determinism', false, false],
    ]);
    expect(results[0]!.detail).toMatch(/^not judged: two plain runs differ \(see determinism\)/);
  });

  it('fails a strategy whose declared warm-up is shorter than its indicators need', async () => {
    const [warmUp] = await runChecks(input(shortWarmup), ['warm-up']);
    expect(warmUp!.passed).toBe(false);
    expect(warmUp!.detail).toMatch(/after the declared warm-up of 2 bars \(expected\) than after 30 \(got\)/);
    const [honestWarmUp] = await runChecks(input(honest), ['warm-up']);
    expect(honestWarmUp!.passed).toBe(true);
  });

  it('passes on warm-up a strategy whose decisions depend on its account (equity sizing, exits of held positions)', async () => {
    // Warmed up or not, both runs start with the same cash and no position: what was traded before the start
    // of the data does not count against the strategy.
    const strategy = prepareStrategy(smaBracket, { symbols: ['AAPL.US'], params: { sma: 5 } });
    const [warmUp] = await runChecks({ ...input(smaBracket), strategy }, ['warm-up']);
    expect(warmUp!.passed).toBe(true);
    expect(warmUp!.detail).toMatch(
      /^8 pairs of runs of up to 120 bars, from bars 61, .* \([1-9]\d* decisions\): the same after the declared warm-up of 5 bars as after 60$/,
    );
    const full = await runChecks({ ...input(smaBracket), strategy }, ['determinism']);
    expect(full[0]!.detail).toMatch(/[1-9]\d* decisions/);
  });

  it("counts a week strategy's warm-up in week bars over day data: a short one fails, the history holds ten times as many weeks", async () => {
    const days = backtestData([{ symbol: 'AAPL.US' as never, period: 'day', source: 'generated', candles: wavingDays(900) }]);
    const weekly = (warmup: number) => ({
      ...input(weeklyCrossover),
      data: days,
      strategy: prepareStrategy(weeklyCrossover as unknown as StrategyDefinition<ParamDefaults>, { params: { warmup } }),
    });
    const [short] = await runChecks(weekly(3), ['warm-up']);
    expect(short!.passed).toBe(false);
    expect(short!.detail).toMatch(
      /^a run from day bar \d+ decided differently after the declared warm-up of 3 week bars \(expected\) than after 40 \(got\)$/,
    );
    const [honestWeeks] = await runChecks(weekly(11), ['warm-up']);
    expect(honestWeeks!.passed).toBe(true);
    expect(honestWeeks!.detail).toMatch(
      /^8 pairs of runs of up to \d+ day bars, from day bars \d+(, \d+)* \([1-9]\d* decisions\): the same after the declared warm-up of 11 week bars as after 120$/,
    );
  }, 120_000);

  it("fails on warm-up an RSI declared only as long as its first value needs (Wilder's smoothing has not settled)", async () => {
    const asFirstValue = { ...rsiMeanReversion, warmup: (params: { period: number }) => params.period + 1 };
    const short = prepareStrategy(asFirstValue as never, { symbols: ['AAPL.US'], params: { period: 3 } });
    const [failed] = await runChecks({ ...input(asFirstValue), strategy: short }, ['warm-up']);
    expect(failed!.passed).toBe(false);
    expect(failed!.detail).toMatch(/declared warm-up of 4 bars/);
    // The bundled strategy's twenty periods.
    const bundled = prepareStrategy(rsiMeanReversion, { symbols: ['AAPL.US'], params: { period: 3 } });
    // Ten times its 61 bars plus 10, and 50 to run on: more than DATA's 160 bars.
    const longer = backtestData([{ symbol: 'AAPL.US' as never, period: 'day', source: 'generated', candles: wavingDays(800) }]);
    const [passed] = await runChecks({ ...input(rsiMeanReversion), strategy: bundled, data: longer }, ['warm-up']);
    expect(passed!.passed).toBe(true);
    expect(passed!.detail).toMatch(/ \([1-9]\d* decisions\): the same after the declared warm-up of 61 bars as after 620$/);
    const [skipped] = await runChecks({ ...input(rsiMeanReversion), strategy: bundled }, ['warm-up']);
    expect(skipped).toMatchObject({
      passed: true,
      skipped: true,
      detail: '160 bars are too few: runs warmed up on ten times the declared 61 bars plus 10 need 670',
    });
  });

  it('replays a strategy of six symbols in parity: every subscription in place before the replay, on its virtual clock', async () => {
    const symbols = ['AAPL.US', 'MSFT.US', 'IBM.US', 'KO.US', 'PEP.US', 'XOM.US'];
    const data = backtestData(
      symbols.map((symbol) => ({
        symbol: symbol as never,
        period: 'day' as const,
        source: 'generated',
        candles: wavingDays(30).map((candle) => ({ ...candle, symbol: symbol as never })),
      })),
    );
    const strategy = prepareStrategy(everySymbol as never, { symbols });
    const [parity] = await runChecks({ ...input(everySymbol, 10), strategy, data, settings: { ...input(everySymbol).settings, symbols } }, [
      'parity',
    ]);
    expect(parity).toMatchObject({ check: 'parity', passed: true });
    expect(parity!.detail).toMatch(/^first \d+ bars: backtest (\d+) decisions, paper replay \1$/);
  }, 120_000);

  it("tells a paper replay that failed as a parity failure, after the other checks' results", async () => {
    const results = await runChecks({
      ...input(honest),
      paperDecisions: () => Promise.reject(new Error('the simulator went away')),
    });
    expect(results.map((result) => [result.check, result.passed])).toEqual([
      ['look-ahead', true],
      ['warm-up', true],
      ['determinism', true],
      ['parity', false],
    ]);
    expect(results[3]!.detail).toBe('the paper replay failed: the simulator went away');
  }, 120_000);

  it('replays a parity stretch long enough to hold decisions, however short --parity-bars is', async () => {
    const [parity] = await runChecks(input(honest, 3), ['parity']);
    expect(parity!.passed).toBe(true);
    const [, bars, backtest, paper] = /first (\d+) bars: backtest (\d+) decisions, paper replay (\d+)$/.exec(parity!.detail)!;
    expect(Number(bars)).toBeGreaterThan(3);
    expect(Number(backtest)).toBeGreaterThan(0);
    expect(Number(paper)).toBe(Number(backtest));
  }, 120_000);

  it('replays the parity stretch from the first bar every symbol has, when the series start apart', async () => {
    // MSFT's bars start 50 days after AAPL's: the simulator needs bars of every symbol it replays.
    const candles = wavingDays(160);
    const later = candles.slice(50).map((candle) => ({
      ...candle,
      symbol: 'MSFT.US' as never,
      close: candle.close * 2,
      open: candle.open * 2,
      high: candle.high * 2,
      low: candle.low * 2,
    }));
    const data = backtestData([
      { symbol: 'AAPL.US' as never, period: 'day', source: 'generated', candles },
      { symbol: 'MSFT.US' as never, period: 'day', source: 'generated', candles: later },
    ]);
    const strategy = prepareStrategy(smaEverySymbol, { symbols: ['AAPL.US', 'MSFT.US'], params: { fast: 3, slow: 8, quantity: 10 } });
    const settings = { ...input(smaEverySymbol).settings, symbols: ['AAPL.US', 'MSFT.US'] };
    const [parity] = await runChecks({ ...input(smaEverySymbol, 3), strategy, data, settings }, ['parity']);
    expect(parity!.passed).toBe(true);
    expect(parity!.detail).toMatch(
      /^\d+ bars from bar 51, the first with data for every symbol: backtest [1-9]\d* decisions, paper replay [1-9]\d*$/,
    );
  }, 120_000);

  it("shows a paper run the same hour bars as the backtest, the day's last (15:30 to the 16:00 close) whole", async () => {
    const data = hourBars(['09:30', '10:30', '11:30', '12:30', '13:30', '14:30', '15:30']);
    const [parity] = await runChecks({ ...input(echoBars, 60), data, settings: { ...input(echoBars).settings, period: '60m' } }, [
      'parity',
    ]);
    // Every bar decided on, the last too: the data's end closes it in the paper run as in the backtest.
    expect(parity!.detail).toMatch(/^first 60 bars: backtest 60 decisions, paper replay 60$/);
    expect(parity!.passed).toBe(true);
  }, 60_000);

  it("fails parity on hour bars labelled on clock hours, saying they are not the venue's bars", async () => {
    const data = hourBars(['09:00', '10:00', '11:00', '12:00', '13:00', '14:00', '15:00']);
    const [parity] = await runChecks({ ...input(echoBars, 20), data, settings: { ...input(echoBars).settings, period: '60m' } }, [
      'parity',
    ]);
    expect(parity!.passed).toBe(false);
    expect(parity!.detail).toContain(
      "the data's 60m bars do not start where the venue's do: AAPL.US's bar of 2024-03-04 10:00 lies in the venue's bar from 09:30",
    );
  }, 60_000);

  it('fails parity when both runs decide the same things on other bars (hour bars on clock hours)', async () => {
    const buysEachBar = defineStrategy({ name: 'buys', symbols: ['AAPL.US'], period: '60m', onCandle: (_candle, ctx) => ctx.buy(1) });
    const data = hourBars(['09:00', '10:00', '11:00', '12:00', '13:00', '14:00', '15:00']);
    const [parity] = await runChecks({ ...input(buysEachBar, 20), data, settings: { ...input(echoBars).settings, period: '60m' } }, [
      'parity',
    ]);
    expect(parity!.passed).toBe(false);
    // The same decision on another bar: the backtest decides at the 09:00 bar's close, the paper run on the bar
    // it builds from that bar's pre-market ticks (09:00–09:30).
    expect(parity!.difference).toMatchObject({
      index: 0,
      expectedTime: localTime('AAPL.US' as never, '2024-03-04 10:00'),
      actualTime: localTime('AAPL.US' as never, '2024-03-04 09:30'),
    });
  }, 60_000);

  it('shows a paper run the same week bars built from day bars as the backtest, in the same order', async () => {
    const [parity] = await runChecks(input(echoWeeks, 100), ['parity']);
    expect(parity!.detail).toMatch(/^first 100 bars: backtest (\d+) decisions, paper replay \1$/);
    expect(parity!.passed).toBe(true);
  }, 60_000);

  it("keeps parity across a split: the paper run's book has the split's shares on the ex-date's first bar", async () => {
    const days = ['02', '03', '04', '05', '08', '09', '10', '11'];
    const closes = [100, 101, 102, 101, 103, 68, 69, 70];
    const data = backtestData([
      {
        symbol: AAPL,
        period: 'day',
        source: 'generated',
        candles: closes.map((close, index) => dayBar(AAPL, `2024-01-${days[index]!}`, close, close + 1, close - 1, close)),
      },
    ]);
    const split: CorporateAction = { kind: 'split', symbol: AAPL, exDate: '2024-01-09', ratio: Fixed.of('1.5') };
    // Sells what its book holds on the ex-date (the sixth bar): 151 shares after the split, 101 before it.
    const strategy = scripted([AAPL], { 0: (ctx) => ctx.buy(101), 5: (ctx) => ctx.sell(ctx.positions.quantity()) });
    const base = input(honest, 8);
    const [parity] = await runChecks(
      {
        ...base,
        strategy,
        data,
        settings: { ...base.settings, actions: [corporateActionToJson(split)] },
        paperDecisions: (replayed, replayData) => paperDecisions(replayed, replayData, { cash: '1000000', actions: [split] }),
      },
      ['parity'],
    );
    expect(parity).toMatchObject({ check: 'parity', passed: true, detail: 'first 8 bars: backtest 2 decisions, paper replay 2' });
  }, 60_000);

  it('fails parity for a strategy that decides on quotes, saying a backtest has none', async () => {
    const [parity] = await runChecks(input(onQuotes, 10), ['parity']);
    expect(parity!.passed).toBe(false);
    expect(parity!.detail).toMatch(
      /^first 10 bars: backtest 0 decisions, paper replay [1-9]\d*; the strategy asked for quotes of AAPL\.US \(ctx\.quotes\(\)\): a backtest has candles only and sends none, a paper run sends four a bar$/,
    );
  }, 60_000);

  it('skips warm-up on data too short for a longer warm-up, saying so, and cuts the history once on two bars', async () => {
    const short = { ...input(honest), data: sliceData(DATA, DATA.series[0]!.columns.time[0]!, DATA.series[0]!.columns.time[20]!) };
    const [lookAhead, warmUp] = await runChecks(short, ['look-ahead', 'warm-up']);
    expect(warmUp).toEqual({
      check: 'warm-up',
      passed: true,
      skipped: true,
      detail: `20 bars are too few: runs warmed up on ten times the declared ${short.strategy.warmup} bars plus 10 need ${10 * short.strategy.warmup + 60}`,
    });
    expect(lookAhead!.detail).toMatch(/^history cut after \d+ random bars? \(/);
  }, 60_000);

  it('skips, not passes, each check that compared nothing because the strategy never decided', async () => {
    const results = await runChecks(input(quiet, 5));
    const nothing = ': nothing compared (more data, or other params?)';
    expect(results.map(({ check, passed, skipped, detail }) => ({ check, passed, skipped, detail }))).toEqual([
      {
        check: 'look-ahead',
        passed: true,
        skipped: true,
        detail: expect.stringMatching(/^no run over \d+ bars or cut shorter made a decision/),
      },
      { check: 'warm-up', passed: true, skipped: true, detail: expect.stringMatching(/made no decision: nothing compared|are too few/) },
      { check: 'determinism', passed: true, skipped: true, detail: expect.stringMatching(/^two runs over \d+ bars made no decision/) },
      { check: 'parity', passed: true, skipped: true, detail: `first 5 bars: no decisions in the whole run${nothing}` },
    ]);
    for (const result of results) if (result.check !== 'warm-up') expect(result.detail.endsWith(nothing)).toBe(true);
  }, 120_000);
});

describe('the parity stretch', () => {
  const times = [0, 10, 20, 30, 40, 50, 60, 70, 80, 90];
  const decidedAt = (...closes: number[]) => closes.map((time) => ({ time, text: 'd' }));

  it('is --parity-bars long when the run makes no decision, or enough of them within it', () => {
    expect(parityStretch(times, [], 4)).toBe(4);
    expect(parityStretch(times, decidedAt(...Array.from({ length: PARITY_DECISIONS }, () => 15)), 4)).toBe(4);
  });

  it('runs through the bar after the one the run decided its tenth time on', () => {
    // Decided at the close of the bar starting at 50 (its sixth): the stretch holds that bar and the next.
    expect(parityStretch(times, decidedAt(...Array.from({ length: PARITY_DECISIONS }, () => 55)), 3)).toBe(7);
    // Fewer decisions than that: through the last one.
    expect(parityStretch(times, decidedAt(25, 75), 3)).toBe(9);
  });

  it('ends at the last bar', () => {
    expect(parityStretch(times, decidedAt(95), 3)).toBe(10);
    expect(parityStretch(times, [], 40)).toBe(10);
  });
});
