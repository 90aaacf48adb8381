// Warm-up in paper mode, through the real simulator on 127.0.0.1: the replay starts mid-data, the bars before
// it are history, and sma-crossover warmed up on them decides on an early live bar, where a cold start
// would still be filling its slow SMA.
import { afterEach, describe, expect, it } from 'vitest';
import type { Candle } from '../../src/domain/candle.js';
import { prepareStrategy, type PreparedStrategy } from '../../src/strategy/prepare.js';
import smaCrossover from '../../strategies/sma-crossover.js';
import type { Logger } from '../../src/log/logger.js';
import { backtest } from '../support/backtest/scripted.js';
import { captureLogger } from '../support/http/client-harness.js';
import { wavingDays } from '../support/run/candles.js';
import { removeTempFolders, startPaperHarness, type PaperHarness } from '../support/run/paper-harness.js';

const BARS = wavingDays(60);
const SMA = prepareStrategy(smaCrossover, { params: { fast: 3, slow: 7, quantity: 10 }, symbols: ['AAPL.US'] });

let harness: PaperHarness | undefined;

afterEach(async () => {
  await harness?.stop();
  harness = undefined;
  await removeTempFolders();
});

function dateOf(bar: Candle): string {
  return new Date(bar.time).toISOString().slice(0, 10);
}

/** The reasons of the intents of a paper run replaying from `from`. */
async function paperReasons(strategy: PreparedStrategy, from: string, logger?: Logger): Promise<string[]> {
  harness = await startPaperHarness({ strategies: [strategy], candles: [BARS], from, ...(logger === undefined ? {} : { logger }) });
  await harness.stepAll();
  const reasons = harness.ofType('intent').map((event) => event.intent.reason ?? '');
  await harness.stop();
  harness = undefined;
  return reasons;
}

describe('paper warm-up', () => {
  it('sma-crossover warmed up on the bars before the replay decides on the third live bar; cold, it cannot', async () => {
    // Where the full data crosses: pick a cross at least 20 bars in and start the replay two bars before it.
    const decisions = (await backtest([BARS.slice(0, -1)], [SMA])).intents;
    const crossIndex = BARS.findIndex(
      (bar, index) => index >= 20 && decisions.some((decision) => decision.time > bar.time && decision.time < bar.time + 86_400_000),
    );
    expect(crossIndex).toBeGreaterThanOrEqual(20);
    const from = dateOf(BARS[crossIndex - 2]!);
    const expected = decisions.filter((decision) => decision.time > BARS[crossIndex - 2]!.time).map((decision) => decision.intent.reason);

    const log = captureLogger();
    const warm = await paperReasons(SMA, from, log.logger);
    const cold = await paperReasons({ ...SMA, warmup: 0 }, from);

    // Warm: the backtest's decisions on the live bars, the first one included (made on the third live bar).
    expect(warm).toEqual(expected);
    expect(log.text()).toContain('warmed up on 8 bars of history');
    // Cold: the slow SMA needs 8 live bars, so the early cross is missed.
    expect(cold.length).toBeLessThan(warm.length);
    expect(cold).toEqual(expected.slice(expected.length - cold.length));
  });
});
