// Where a research run's trials go without --queue: a small run in this thread (worker threads would take
// longer to start than its trials), anything larger, or any run given --workers, on worker threads.
import { describe, expect, it } from 'vitest';
import { IN_PROCESS_MAX_BARS_WALKED, runsInThisThread } from '../../../src/cli/research/setup.js';

describe('choosing where the trials run', () => {
  it('runs a small grid over one daily file in this thread', () => {
    // The README's first example: 50 trials over the bundled 20 years of SPX (5,105 bars).
    expect(runsInThisThread(undefined, 50, 5_105)).toBe(true);
  });

  it('uses worker threads once the trials would walk more bars than threads take to start', () => {
    expect(runsInThisThread(undefined, 1, IN_PROCESS_MAX_BARS_WALKED)).toBe(true);
    expect(runsInThisThread(undefined, 1, IN_PROCESS_MAX_BARS_WALKED + 1)).toBe(false);
    // A few trials over a million minute bars each.
    expect(runsInThisThread(undefined, 4, 1_000_000)).toBe(false);
  });

  it('uses worker threads whenever --workers is given', () => {
    expect(runsInThisThread(1, 2, 100)).toBe(false);
    expect(runsInThisThread(2, 2, 100)).toBe(false);
  });
});
