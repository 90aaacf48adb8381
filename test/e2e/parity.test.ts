// Backtest ↔ paper parity (issue 6): the same strategy on the same bars makes the same decisions at the same
// instants (the bars' closes), whether the runtime runs in process over the backtest broker or over the real
// protocol against the simulator. The paper replay is stepped by hand and settled after every tick, so the
// comparison is exact. A paper run never sees its last bar close (no later tick comes), so the backtest gets
// every bar but that one.
// Warm-ups keep parity: the replay starts at the data's first bar, so the paper run finds no history before
// it (its strategies start cold, as a backtest does) and both runs decide on exactly the same bars.
import { afterEach, describe, expect, it } from 'vitest';
import type { OrderIntent } from '../../src/domain/intent.js';
import { prepareStrategy, type PreparedStrategy } from '../../src/strategy/prepare.js';
import breakout from '../../strategies/breakout.js';
import dca from '../../strategies/dca.js';
import rsiMeanReversion from '../../strategies/rsi-mean-reversion.js';
import smaCrossover from '../../strategies/sma-crossover.js';
import { backtest } from '../support/backtest/scripted.js';
import { AAPL, wavingDays } from '../support/run/candles.js';
import { removeTempFolders, startPaperHarness, type PaperHarness } from '../support/run/paper-harness.js';

const BARS = wavingDays(70);
const STRATEGIES: readonly PreparedStrategy[] = [
  prepareStrategy(smaCrossover, { symbols: [AAPL], params: { fast: 3, slow: 7, quantity: 10 } }),
  prepareStrategy(rsiMeanReversion, { symbols: [AAPL], params: { period: 5, oversold: 35, exit: 60, quantity: 10 } }),
  prepareStrategy(breakout, { symbols: [AAPL], params: { lookback: 5, atrPeriod: 3, stopAtr: 1, quantity: 10 } }),
  prepareStrategy(dca, { symbols: [AAPL], params: { amount: 1000, everyDays: 10 } }),
];

let harness: PaperHarness | undefined;

afterEach(async () => {
  await harness?.stop();
  harness = undefined;
  await removeTempFolders();
});

/** A decision: when, by which strategy, what. */
function decision(time: number, strategy: string, intent: OrderIntent): Record<string, unknown> {
  return {
    time: new Date(time).toISOString(),
    strategy,
    kind: intent.kind,
    symbol: intent.symbol,
    side: intent.kind === 'order' ? intent.side : undefined,
    quantity: intent.kind === 'order' || intent.kind === 'target' ? intent.quantity.toFixed() : undefined,
    reason: intent.reason,
  };
}

describe('backtest and paper parity', () => {
  for (const strategy of STRATEGIES) {
    it(`${strategy.name}: a paper run makes the backtest's decisions at its instants, in the same order`, async () => {
      const backtested = await backtest([BARS.slice(0, -1)], [strategy]);
      harness = await startPaperHarness({ strategies: [strategy], candles: [BARS] });

      await harness.stepAll();

      const paper = harness.ofType('intent').map((event) => decision(event.time, event.strategy, event.intent));
      expect(backtested.intents.length).toBeGreaterThanOrEqual(3);
      expect(paper).toEqual(backtested.intents.map((recorded) => decision(recorded.time, recorded.strategy, recorded.intent)));
    });
  }
});
