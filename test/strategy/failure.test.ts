import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseSymbol } from '../../src/domain/symbol.js';
import { barText, describeFailure, locateInStack } from '../../src/strategy/failure.js';
import { useFrameMapper } from '../../src/strategy/frames.js';

const SRC = resolve('src');
const USER = resolve('strategies/mine.ts');

function stack(...frames: string[]): string {
  return ['Error: boom', ...frames.map((frame) => `    at ${frame}`)].join('\n');
}

describe('where a strategy failed', () => {
  it("finds the strategy file's own line, whatever called it", () => {
    const trace = stack(
      `Object.onCandle (${USER}:11:32)`,
      `Object.next (${join(SRC, 'strategy/define.ts')}:91:25)`,
      `SafeSubscriber.next (${resolve('node_modules/rxjs/dist/Subscriber.js')}:71:12)`,
    );

    expect(locateInStack(trace, 'strategies/mine.ts')).toEqual({ file: 'strategies/mine.ts', line: 11, column: 32 });
  });

  it('reads file URLs and frames without a function name', () => {
    expect(locateInStack(stack(`${pathToFileURL(USER).href}:3:9`), 'strategies/mine.ts')).toEqual({
      file: 'strategies/mine.ts',
      line: 3,
      column: 9,
    });
    expect(locateInStack(stack(`async run (${pathToFileURL(USER).href}:4:1)`), 'strategies/mine.ts')).toMatchObject({ line: 4 });
  });

  it("skips the helpers a strategy calls (ctx.buy, node_modules) to reach the user's helper module", () => {
    const helper = resolve('lib/signals.ts');
    const trace = stack(
      `toDecimal (${join(SRC, 'strategy/intents.ts')}:20:11)`,
      `next (${resolve('node_modules/trading-signals/dist/index.js')}:1:100)`,
      `signal (${helper}:7:3)`,
      `Object.next (${join(SRC, 'strategy/define.ts')}:91:25)`,
    );

    expect(locateInStack(trace, 'strategy made in code')).toEqual({ file: 'lib/signals.ts', line: 7, column: 3 });
  });

  it("names no place for an error the runtime raised itself, even when its callers' frames follow", () => {
    const trace = stack(
      `StrategyHost.next (${join(SRC, 'runtime/strategy-host.ts')}:58:20)`,
      `node:internal/process/task_queues:95:5`,
      `runBacktest (${resolve('my-program.ts')}:30:3)`,
    );

    expect(locateInStack(trace, 'strategies/mine.ts')).toBeUndefined();
    expect(locateInStack(undefined, 'strategies/mine.ts')).toBeUndefined();
  });

  it("reads frames of code bundled away from its files where a frame mapper says they are (the start-up snapshot's)", () => {
    const bundle = '/cache/snapshots/1-2/backtest.cjs';
    const helper = resolve('lib/signals.ts');
    // The bundle's columns stand for these modules of the runtime.
    const modules: Record<number, string> = { 100: join(SRC, 'strategy/intents.ts'), 200: join(SRC, 'runtime/strategy-host.ts') };
    useFrameMapper((location) => (location.file === bundle ? { file: modules[location.column]!, line: 1, column: 1 } : undefined));
    try {
      expect(locateInStack(stack(`toDecimal (${bundle}:1:100)`, `signal (${helper}:7:3)`), 'made in code')).toEqual({
        file: 'lib/signals.ts',
        line: 7,
        column: 3,
      });
      expect(locateInStack(stack(`StrategyHost.next (${bundle}:1:200)`, `signal (${helper}:7:3)`), 'made in code')).toBeUndefined();
    } finally {
      useFrameMapper(undefined);
    }
  });

  it('writes one line with the place, the bar in its market time and the cause', () => {
    const bar = barText({ symbol: parseSymbol('AAPL.US'), period: '5m', time: Date.UTC(2024, 0, 2, 14, 35), index: 1 });

    expect(describeFailure('mine', 'strategies/mine.ts', 'boom', { file: 'strategies/mine.ts', line: 11, column: 32 }, bar)).toBe(
      'strategy mine (strategies/mine.ts) failed at strategies/mine.ts:11:32, on the AAPL.US 5m bar of 2024-01-02 09:35 (index 1): boom',
    );
    expect(describeFailure('mine', 'strategies/mine.ts', 'boom', undefined, undefined)).toBe(
      'strategy mine (strategies/mine.ts) failed: boom',
    );
  });
});
