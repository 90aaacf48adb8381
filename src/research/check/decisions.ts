// A strategy's decisions as comparable rows (what it asked for, not when the run happened to record it),
// and the first place two lists of them part.
import type { RecordedIntent } from '../../backtest/engine.js';
import type { OrderIntent } from '../../domain/intent.js';

export interface Decision {
  readonly time: number;
  readonly text: string;
}

export function describeIntent(strategy: string, intent: OrderIntent): string {
  const quantity = intent.kind === 'order' || intent.kind === 'target' ? intent.quantity.toFixed() : undefined;
  const priced = intent.kind === 'cancel' ? undefined : intent;
  return JSON.stringify({
    strategy,
    kind: intent.kind,
    symbol: intent.symbol,
    side: intent.kind === 'order' ? intent.side : undefined,
    quantity,
    orderType: priced?.orderType,
    price: priced?.price?.toFixed(),
    triggerPrice: priced?.triggerPrice?.toFixed(),
    reason: intent.reason,
  });
}

export function decisionsOf(intents: readonly RecordedIntent[]): Decision[] {
  return intents.map((recorded) => ({ time: recorded.time, text: describeIntent(recorded.strategy, recorded.intent) }));
}

export interface Difference {
  readonly index: number;
  /** Time of the first differing decision (the earlier of the two), epoch ms. */
  readonly time: number;
  readonly expected: string | undefined;
  readonly actual: string | undefined;
  /** When each side decided (undefined for a side without the decision): they may differ only in this. */
  readonly expectedTime: number | undefined;
  readonly actualTime: number | undefined;
}

/** The first position where the lists differ (time or content), or undefined when equal. */
export function firstDifference(
  expected: readonly Decision[],
  actual: readonly Decision[],
  sameTime: (a: number, b: number) => boolean = (a, b) => a === b,
): Difference | undefined {
  const length = Math.max(expected.length, actual.length);
  for (let index = 0; index < length; index += 1) {
    const a = expected[index];
    const b = actual[index];
    if (a !== undefined && b !== undefined && a.text === b.text && sameTime(a.time, b.time)) continue;
    return {
      index,
      time: Math.min(a?.time ?? Infinity, b?.time ?? Infinity),
      expected: a?.text,
      actual: b?.text,
      expectedTime: a?.time,
      actualTime: b?.time,
    };
  }
  return undefined;
}
