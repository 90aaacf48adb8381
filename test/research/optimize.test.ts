// Optimization on the real worker pool (piscina threads over shared columns) against trials run in this
// process: the same trials, the same metrics, the same ranking; refused combinations skipped and counted.
import { afterEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backtestData } from '../../src/backtest/data.js';
import { dataHash } from '../../src/research/data-hash.js';
import type { TrialExecutor } from '../../src/research/executor.js';
import { parseObjective } from '../../src/research/objective.js';
import { optimize, overfittingOf, planTrials } from '../../src/research/optimize.js';
import { OutcomeTable } from '../../src/research/outcome-table.js';
import { splitParts } from '../../src/research/stats/pbo-splits.js';
import { rankedOutcomes } from '../../src/research/ranking.js';
import { csvLines } from '../../src/research/report-rows.js';
import { syntheticOutcome } from '../support/research/outcomes.js';
import { parseParamSpace } from '../../src/research/param-space.js';
import { createInProcessExecutor } from '../../src/research/in-process.js';
import { createLocalPool } from '../../src/research/pool/local-pool.js';
import { dataFromShared, shareData } from '../../src/research/shared-data.js';
import type { TrialSettings } from '../../src/research/trial.js';
import { openTrialsFile } from '../../src/research/trials-file.js';
import smaCrossover from '../../strategies/sma-crossover.js';
import failsAtFast4 from './strategies/fails-at-fast-4.js';
import { AAPL, wavingDays } from '../support/run/candles.js';

const DATA = backtestData([{ symbol: AAPL, period: 'day', source: 'generated', candles: wavingDays(300) }]);
const SETTINGS: TrialSettings = {
  strategyFile: fileURLToPath(new URL('../../strategies/sma-crossover.ts', import.meta.url)),
  symbols: [AAPL],
  cash: '100000',
  venue: { fees: { commissionRate: 0.001 } },
  riskFreeRate: 0,
  blocks: 8,
  fixed: { quantity: '10' },
};
const SPACE = parseParamSpace(['fast=2:8:2', 'slow=4:12:4']);
const RULES = { objective: parseObjective('sharpe'), constraints: [], minTrades: 0 };
const context = { definition: smaCrossover as never, data: DATA, risk: undefined };

/** Runs the trials one by one in this process (what a small run without --workers uses): the pool must match it. */
const inProcess: TrialExecutor = createInProcessExecutor(context, SETTINGS);

/** A grid of ~100 trials, its results in this process, and a pool of two threads to run it on. */
async function largerGrid() {
  const plan = planTrials(smaCrossover as never, SETTINGS, {
    space: parseParamSpace(['fast=2:13', 'slow=4:24:2']),
    search: 'grid',
    seed: 1,
  });
  const local = await optimize({ plan, rules: RULES, executor: inProcess });
  return { plan, local, pool: createLocalPool({ workers: 2, settings: SETTINGS, data: shareData(DATA, dataHash(DATA)) }) };
}

let folder: string | undefined;
afterEach(() => {
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  folder = undefined;
});

describe('optimize', () => {
  it('in this process, starts no trial once stopped, and keeps those finished', async () => {
    const plan = planTrials(smaCrossover as never, SETTINGS, { space: SPACE, search: 'grid', seed: 1 });
    const stop = new AbortController();
    const seen: number[] = [];
    await inProcess.run(
      plan.trials,
      (outcome) => {
        seen.push(outcome.index);
        if (seen.length === 3) stop.abort();
      },
      stop.signal,
    );
    expect(seen).toEqual(plan.trials.slice(0, 3).map((trial) => trial.index));
  });

  it('skips and counts the combinations the strategy refuses', () => {
    const plan = planTrials(smaCrossover as never, SETTINGS, { space: SPACE, search: 'grid', seed: 1 });
    expect(plan.spaceSize).toBe(12);
    // fast ≥ slow: (4,4), (6,4), (8,4), (8,8).
    expect(plan.skipped).toHaveLength(4);
    expect(plan.skipped[0]!.reason).toMatch(/fast must be shorter than slow/);
    expect(plan.trials).toHaveLength(8);
  });

  it('gives on two worker threads the trials, metrics and ranking of a run in this process', async () => {
    const plan = planTrials(smaCrossover as never, SETTINGS, { space: SPACE, search: 'grid', seed: 1 });
    const local = await optimize({ plan, rules: RULES, executor: inProcess });
    const pool = createLocalPool({ workers: 2, settings: SETTINGS, data: shareData(DATA, dataHash(DATA)) });
    try {
      const pooled = await optimize({ plan, rules: RULES, executor: pool });
      expect([...pooled.outcomes]).toEqual([...local.outcomes]);
      expect(rankedOutcomes(pooled.outcomes, pooled.ranking).map((outcome) => outcome.index)).toEqual(
        rankedOutcomes(local.outcomes, local.ranking).map((outcome) => outcome.index),
      );
      expect(pooled.overfitting).toEqual(local.overfitting);
    } finally {
      await pool.close();
    }
    expect([...local.outcomes].some((outcome) => outcome.metrics.closedTrades > 0)).toBe(true);
    expect(local.overfitting.pbo?.splits).toBe(70);
    const values = rankedOutcomes(local.outcomes, local.ranking).map((outcome) => outcome.metrics.sharpe!);
    expect([...values].sort((a, b) => b - a)).toEqual(values);
  }, 120_000);

  it('leaves out of the ranking, in this process and on the pool, the trials whose strategy threw, saying why', async () => {
    const settings = { ...SETTINGS, strategyFile: fileURLToPath(new URL('./strategies/fails-at-fast-4.ts', import.meta.url)) };
    const plan = planTrials(failsAtFast4 as never, settings, { space: SPACE, search: 'grid', seed: 1 });
    const local = await optimize({
      plan,
      rules: RULES,
      executor: createInProcessExecutor({ definition: failsAtFast4 as never, data: DATA, risk: undefined }, settings),
    });
    // Throwing in its own code at fast 4, and in crossover() where fast ≥ slow (no schema refuses those).
    const outcomes = [...local.outcomes];
    const threw = outcomes.filter((outcome) => outcome.params.fast === 4 && Number(outcome.params.slow) > 4);
    const refused = outcomes.filter((outcome) => Number(outcome.params.fast) >= Number(outcome.params.slow));
    expect(threw.length).toBeGreaterThan(0);
    for (const outcome of threw)
      expect(outcome.metrics.failure).toMatch(
        /^no crosses at fast 4 \(at .*fails-at-fast-4\.ts:14:\d+, on the AAPL\.US day bar of \d{4}-\d\d-\d\d \(index \d+\)\)$/,
      );
    for (const outcome of refused) expect(outcome.metrics.failure).toMatch(/^crossover: fast \(\d\) must be shorter than slow/);
    const failed = threw.length + refused.length;
    expect(outcomes.filter((outcome) => outcome.metrics.failure !== null)).toHaveLength(failed);
    expect(local.ranking.excluded).toMatchObject({ 'strategy failed': failed });
    expect(rankedOutcomes(local.outcomes, local.ranking).every((outcome) => outcome.metrics.failure === null)).toBe(true);
    expect(local.ranking.rows.length).toBeGreaterThan(0);
    const pool = createLocalPool({ workers: 2, settings, data: shareData(DATA, dataHash(DATA)) });
    try {
      const pooled = await optimize({ plan, rules: RULES, executor: pool });
      expect([...pooled.outcomes]).toEqual([...local.outcomes]);
      expect(pooled.ranking.excluded).toEqual(local.ranking.excluded);
    } finally {
      await pool.close();
    }
  }, 120_000);

  it('runs a larger grid on the pool in batches, each trial once, as this process does', async () => {
    const { plan, local, pool } = await largerGrid();
    expect(plan.trials.length).toBeGreaterThan(80);
    const seen: number[] = [];
    try {
      const pooled = await optimize({ plan, rules: RULES, executor: pool, onOutcome: (outcome) => seen.push(outcome.index) });
      expect([...pooled.outcomes]).toEqual([...local.outcomes]);
      expect(pooled.overfitting).toEqual(local.overfitting);
    } finally {
      await pool.close();
    }
    expect(seen).toHaveLength(plan.trials.length);
    expect(new Set(seen).size).toBe(plan.trials.length);
  }, 120_000);

  it('on the pool, starts no batch once stopped and keeps the trials that came back', async () => {
    const { plan, local, pool } = await largerGrid();
    const stop = new AbortController();
    try {
      const stopped = await optimize({
        plan,
        rules: RULES,
        executor: pool,
        signal: stop.signal,
        onOutcome: (_, done) => done === 10 && stop.abort(),
      });
      expect(stopped.interrupted).toBe(true);
      expect(stopped.outcomes.length).toBeGreaterThanOrEqual(10);
      expect(stopped.outcomes.length).toBeLessThan(plan.trials.length);
      const byIndex = new Map([...local.outcomes].map((outcome) => [outcome.index, outcome]));
      for (const outcome of stopped.outcomes) expect(outcome).toEqual(byIndex.get(outcome.index));
    } finally {
      await pool.close();
    }
  }, 120_000);

  it('on a pool of six threads (or more), gives no listener-leak warning for the trials waiting on one stop signal', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning.name);
    process.on('warning', onWarning);
    const pool = createLocalPool({ workers: 6, settings: SETTINGS, data: shareData(DATA, dataHash(DATA)) });
    try {
      // More trials than 10 listeners: the first of each of the 12 lanes go one by one, each listening.
      const plan = planTrials(smaCrossover as never, SETTINGS, {
        space: parseParamSpace(['fast=2:5', 'slow=6:10']),
        search: 'grid',
        seed: 1,
      });
      expect(plan.trials.length).toBe(20);
      const run = await optimize({ plan, rules: RULES, executor: pool, signal: new AbortController().signal });
      expect(run.outcomes.length).toBe(plan.trials.length);
      // Warnings are emitted on the next turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
      await pool.close();
    }
  }, 120_000);

  it('takes the overfitting statistics over the returns in excess of --risk-free-rate, as the Sharpe ratio it ranks by', async () => {
    const settings = { ...SETTINGS, riskFreeRate: 0.05 };
    const plan = planTrials(smaCrossover as never, settings, { space: SPACE, search: 'grid', seed: 1 });
    const result = await optimize({ plan, rules: RULES, executor: createInProcessExecutor(context, settings) });
    const outcomes = [...result.outcomes].filter((outcome) => outcome.stats.std > 0);
    expect(outcomes.length).toBeGreaterThan(2);
    for (const { metrics, stats } of outcomes)
      expect((stats.mean / stats.std) * Math.sqrt(metrics.periodsPerYear)).toBeCloseTo(metrics.sharpe!, 10);
    // With 5 % a year against a small position, every trial's excess Sharpe ratio is negative: luck is no explanation.
    expect(outcomes.every(({ metrics }) => metrics.sharpe! < 0)).toBe(true);
    expect(result.overfitting.deflatedSharpe!.probability).toBeLessThan(0.01);
  });

  it('leaves trials whose strategy threw out of the overfitting statistics (their returns stop early)', async () => {
    const plan = planTrials(smaCrossover as never, SETTINGS, { space: SPACE, search: 'grid', seed: 1 });
    const whole = await optimize({ plan, rules: RULES, executor: inProcess });
    expect(whole.overfitting.pbo).not.toBeNull();
    // The same trials, and beside them failed copies whose returns would win every split.
    const outcomes = [...whole.outcomes];
    const failed = outcomes.map((outcome, at) => ({
      ...outcome,
      index: outcomes.length + at,
      metrics: { ...outcome.metrics, failure: 'boom (at strategy.ts:1:1)' },
      stats: { ...outcome.stats, mean: 1, std: 0.5, blockSums: outcome.stats.blockSums.map(() => 5) },
    }));
    const withFailed = OutcomeTable.of([...outcomes, ...failed]);
    const again = await overfittingOf(withFailed, whole.ranking.rows[0], inProcess);
    expect(again).toEqual(whole.overfitting);
  });

  it('has no PBO when every trial has the same returns (a parameter the strategy ignores), and says why', async () => {
    const plan = planTrials(smaCrossover as never, SETTINGS, { space: SPACE, search: 'grid', seed: 1 });
    const { outcomes, ranking } = await optimize({ plan, rules: RULES, executor: inProcess });
    const [best] = rankedOutcomes(outcomes, ranking, 1);
    const copies = OutcomeTable.of([0, 1, 2, 3].map((index) => ({ ...best!, index })));
    const overfitting = await overfittingOf(copies, 0, inProcess);
    expect(overfitting.pbo).toBeNull();
    expect(overfitting.pboMissing).toBe('every trial has the same returns: there is no best to judge');
    // Copies add no luck to beat: the deflated Sharpe ratio is still given.
    expect(overfitting.deflatedSharpe?.trials).toBe(4);
  });

  it('has no PBO when the bars are too few for the blocks, and says why', async () => {
    const short = [1, 2, 3].map((index) => {
      const outcome = syntheticOutcome(index);
      return { ...outcome, stats: { ...outcome.stats, count: 3 } };
    });
    const overfitting = await overfittingOf(OutcomeTable.of(short), 0);
    expect(overfitting.pbo).toBeNull();
    expect(overfitting.pboMissing).toBe('too few returns for 4 blocks: 3, where each block needs 1 and each half 2');
  });

  it('reports the overfitting statistic part by part, in this thread and on the pool, and leaves it out when stopped during it', async () => {
    const plan = planTrials(smaCrossover as never, SETTINGS, { space: SPACE, search: 'grid', seed: 1 });
    const parts = splitParts(SETTINGS.blocks).length;
    const pool = createLocalPool({ workers: 2, settings: SETTINGS, data: shareData(DATA, dataHash(DATA)) });
    try {
      for (const executor of [inProcess, pool]) {
        const seen: number[] = [];
        const whole = await optimize({ plan, rules: RULES, executor, onOverfitting: (done, total) => seen.push(done, total) });
        expect(whole.overfitting.pbo).not.toBeNull();
        expect(whole.stopped).toBe(false);
        // (done, total) pairs: 0 first, then each part once (in any order on the pool, so counted).
        expect(seen.filter((_, at) => at % 2 === 1)).toEqual(Array(parts + 1).fill(parts));
        expect(seen.filter((_, at) => at % 2 === 0)).toEqual(Array.from({ length: parts + 1 }, (_, done) => done));

        const stop = new AbortController();
        const stopped = await optimize({
          plan,
          rules: RULES,
          executor,
          signal: stop.signal,
          // In this thread, aborted from the event loop as Ctrl-C is: heard between parts. On the pool, at once
          // (the pool's threads may finish every part before a turn of this thread's loop).
          onOverfitting: (done) => done === 1 && (executor === inProcess ? setImmediate(() => stop.abort()) : stop.abort()),
        });
        expect([stopped.interrupted, stopped.stopped, stopped.overfitting.pbo]).toEqual([false, true, null]);
        expect(stopped.overfitting.deflatedSharpe).toEqual(whole.overfitting.deflatedSharpe);
        expect([...stopped.outcomes]).toEqual([...whole.outcomes]);
      }
    } finally {
      await pool.close();
    }
  }, 120_000);

  it('draws the same random trials and ranking for the same seed', async () => {
    const space = parseParamSpace(['fast=2:10', 'slow=5:20']);
    const first = planTrials(smaCrossover as never, SETTINGS, { space, search: 'random', trials: 6, seed: 42 });
    const again = planTrials(smaCrossover as never, SETTINGS, { space, search: 'random', trials: 6, seed: 42 });
    expect(again).toEqual(first);
    const a = await optimize({ plan: first, rules: RULES, executor: inProcess });
    const b = await optimize({ plan: again, rules: RULES, executor: inProcess });
    expect(rankedOutcomes(b.outcomes, b.ranking).map((outcome) => outcome.index)).toEqual(
      rankedOutcomes(a.outcomes, a.ranking).map((outcome) => outcome.index),
    );
  });

  it('runs --trials combinations the strategy accepts: a refused draw is replaced and counted', () => {
    // fast ≥ slow is refused: about a third of this grid.
    const space = parseParamSpace(['fast=2:12', 'slow=5:15']);
    const plan = planTrials(smaCrossover as never, SETTINGS, { space, search: 'random', trials: 40, seed: 3 });
    expect(plan.trials).toHaveLength(40);
    expect(plan.skipped.length).toBeGreaterThan(5);
    expect(plan.skipped.every(({ combo }) => Number(combo.fast) >= Number(combo.slow))).toBe(true);
    expect(new Set(plan.trials.map((trial) => trial.index)).size).toBe(40);
    // A longer draw starts as the shorter one did.
    const fewer = planTrials(smaCrossover as never, SETTINGS, { space, search: 'random', trials: 10, seed: 3 });
    expect(plan.trials.slice(0, 10)).toEqual(fewer.trials);
    // More than the strategy accepts in all: every accepted combination, once.
    const all = planTrials(smaCrossover as never, SETTINGS, { space, search: 'random', trials: 500, seed: 3 });
    const accepted = planTrials(smaCrossover as never, SETTINGS, { space, search: 'grid', seed: 3 });
    expect(all.trials.map((trial) => trial.index).sort((a, b) => a - b)).toEqual(accepted.trials.map((trial) => trial.index));
  });

  it("takes over a table of the run's finished trials, and copies only this run's trials, once, from any other", async () => {
    const plan = planTrials(smaCrossover as never, SETTINGS, { space: SPACE, search: 'grid', seed: 1 });
    const full = [...(await optimize({ plan, rules: RULES, executor: inProcess })).outcomes];
    const ran: number[] = [];
    const counting: TrialExecutor = {
      run: (trials, onOutcome, signal) => (ran.push(...trials.map((trial) => trial.index)), inProcess.run(trials, onOutcome, signal)),
      close: async () => {},
    };
    const given = OutcomeTable.of(full.slice(0, 3));
    const resumed = await optimize({ plan, rules: RULES, executor: counting, finished: given });
    expect(resumed.outcomes).toBe(given);
    expect([...resumed.outcomes]).toEqual(full);
    expect(ran).toEqual(full.slice(3).map((outcome) => outcome.index));
    ran.length = 0;
    const mixed = OutcomeTable.of([full[1]!, { ...full[0]!, index: 999 }, full[1]!, full[4]!]);
    const again = await optimize({ plan, rules: RULES, executor: counting, finished: mixed });
    expect(again.outcomes).not.toBe(mixed);
    expect([...again.outcomes]).toEqual(full);
    expect(ran.sort((a, b) => a - b)).toEqual(
      full.map((outcome) => outcome.index).filter((index) => index !== full[1]!.index && index !== full[4]!.index),
    );
  });

  it('keeps finished trials when stopped and continues from the trials file without running them again', async () => {
    folder = mkdtempSync(join(tmpdir(), 'optimize-'));
    const path = join(folder, 'trials.jsonl');
    const plan = planTrials(smaCrossover as never, SETTINGS, { space: SPACE, search: 'grid', seed: 1 });
    const stop = new AbortController();
    const file = openTrialsFile(path, { run: 'a' });
    const first = await optimize({
      plan,
      rules: RULES,
      executor: inProcess,
      signal: stop.signal,
      onOutcome: (outcome, done) => {
        file.append(outcome);
        if (done === 3) stop.abort();
      },
    });
    file.close();
    expect(first.interrupted).toBe(true);
    expect(first.outcomes).toHaveLength(3);

    const ran: number[] = [];
    const counting: TrialExecutor = {
      async run(trials, onOutcome, signal) {
        ran.push(...trials.map((trial) => trial.index));
        await inProcess.run(trials, onOutcome, signal);
      },
      async close() {},
    };
    const resumed = openTrialsFile(path, { run: 'a' });
    expect([...resumed.finished].map((outcome) => outcome.index)).toEqual([...first.outcomes].map((outcome) => outcome.index));
    const second = await optimize({
      plan,
      rules: RULES,
      executor: counting,
      finished: resumed.finished,
      onOutcome: (outcome) => resumed.append(outcome),
    });
    resumed.close();
    expect(ran).toHaveLength(5);
    expect(ran.some((index) => [...first.outcomes].some((outcome) => outcome.index === index))).toBe(false);
    const full = await optimize({ plan, rules: RULES, executor: inProcess });
    expect([...second.outcomes]).toEqual([...full.outcomes]);
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(1 + 8);
    expect(() => openTrialsFile(path, { run: 'b' })).toThrow(/holds the trials of another run; changed since: run \("a" → "b"\)/);
  });

  it('drops a trial line cut short by a kill, and rewrites the file in place with nothing left beside it', async () => {
    folder = mkdtempSync(join(tmpdir(), 'optimize-'));
    const path = join(folder, 'trials.jsonl');
    const plan = planTrials(smaCrossover as never, SETTINGS, { space: SPACE, search: 'grid', seed: 1 });
    const file = openTrialsFile(path, { run: 'a' });
    await optimize({
      plan: { ...plan, trials: plan.trials.slice(0, 2) },
      rules: RULES,
      executor: inProcess,
      onOutcome: (outcome) => file.append(outcome),
    });
    file.close();
    const whole = readFileSync(path, 'utf8');
    writeFileSync(path, `${whole}{"index":2,"params":{"fa`);
    const reopened = openTrialsFile(path, { run: 'a' });
    reopened.close();
    expect([...reopened.finished].map((outcome) => outcome.index)).toEqual([0, 1]);
    expect(readFileSync(path, 'utf8')).toBe(whole);
    expect(readdirSync(folder)).toEqual(['trials.jsonl']);
    // Another run's file is refused untouched.
    expect(() => openTrialsFile(path, { run: 'b' })).toThrow(/another run/);
    expect(readFileSync(path, 'utf8')).toBe(whole);
  });

  it('rebuilds the same candles from the shared columns', () => {
    expect(dataFromShared(shareData(DATA, 'x')).series[0]!.candles).toEqual(DATA.series[0]!.candles);
  });
});

describe('the CSV of the trials', () => {
  it('keeps text a spreadsheet would run as a formula as text, and numbers as they are', () => {
    const outcome = (index: number, mode: string, failure: string | null) => {
      const made = syntheticOutcome(index, { failure, sharpe: -0.25 });
      return { ...made, params: { fast: -3, mode } };
    };
    const outcomes = OutcomeTable.of([
      outcome(0, '=1+2', null),
      outcome(1, '-5', '@SUM(A1:A9)'),
      outcome(2, '+cmd', null),
      outcome(3, '-x', '\t=1'),
    ]);
    const result = { outcomes, ranking: { rows: new Int32Array(0), excluded: {} } } as never;
    const [header, ...rows] = [...csvLines(result)].map((line) => line.replace(/\n$/, '').split(','));
    const column = (name: string) => rows.map((row) => row[header!.indexOf(name)]);
    expect(column('mode')).toEqual(["'=1+2", '-5', "'+cmd", "'-x"]);
    expect(column('fast')).toEqual(['-3', '-3', '-3', '-3']);
    expect(column('sharpe')).toEqual(['-0.25', '-0.25', '-0.25', '-0.25']);
    expect(column('failure')).toEqual(['', "'@SUM(A1:A9)", '', "'\t=1"]);
  });
});
