// Where the exits of a position lie and which one a closed bar reached: stop-loss and take-profit away from
// the average cost, the trailing stop away from the best price since entry, mirrored for a short.
import type { Candle, ExitDistance, ExitSpec } from '../domain/index.js';

export const EXIT_TAGS = { stopLoss: 'stop-loss', takeProfit: 'take-profit', trailingStop: 'trailing-stop' } as const;

/** The tag of the close an exit sends. */
export type ExitTag = (typeof EXIT_TAGS)[keyof typeof EXIT_TAGS];

/** What a bar reached, if anything: the exit's tag and the level, by priority stop-loss, trailing, take-profit. */
export interface ExitHit {
  readonly tag: ExitTag;
  readonly level: number;
}

/**
 * The exit a bar reaches for a position of sign `direction` (1 long, −1 short) at `averageCost`, with `best`
 * the best price before this bar. When several are reached in one bar the worst case is assumed (the stop).
 */
export function exitReached(exits: ExitSpec, direction: 1 | -1, averageCost: number, best: number, bar: Candle): ExitHit | undefined {
  const away = (from: number, distance: ExitDistance, sign: 1 | -1): number =>
    'percent' in distance ? from * (1 + sign * distance.percent) : from + sign * distance.amount;
  // Adverse: below for a long (the low reaches it), above for a short (the high does).
  const adverseHit = (level: number): boolean => (direction === 1 ? bar.low <= level : bar.high >= level);
  if (exits.stopLoss !== undefined) {
    const level = away(averageCost, exits.stopLoss, direction === 1 ? -1 : 1);
    if (adverseHit(level)) return { tag: EXIT_TAGS.stopLoss, level };
  }
  if (exits.trailingStop !== undefined) {
    const level = away(best, exits.trailingStop, direction === 1 ? -1 : 1);
    if (adverseHit(level)) return { tag: EXIT_TAGS.trailingStop, level };
  }
  if (exits.takeProfit !== undefined) {
    const level = away(averageCost, exits.takeProfit, direction);
    if (direction === 1 ? bar.high >= level : bar.low <= level) return { tag: EXIT_TAGS.takeProfit, level };
  }
  return undefined;
}
