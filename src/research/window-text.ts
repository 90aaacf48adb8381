// What a walk-forward window's line says, on the terminal and in the HTML report alike: the objective's
// figure ("— (no position held)" where the window had no ratio to read), the chosen params or why none
// qualified, the test run's failure, and over how many windows a mean is taken.
import type { ObjectiveName, TrialMetrics } from './objective.js';
import type { WalkForwardResult, WindowResult } from './walkforward.js';

export function figureText(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : value.toFixed(4);
}

/**
 * The window's figure of `metric`. A window in which the strategy held nothing has a flat curve: no ratio can
 * be read from it, and a bare dash would look like a missing figure.
 */
export function windowFigure(metrics: TrialMetrics | undefined, metric: ObjectiveName): string {
  const value = metrics === undefined ? null : (metrics[metric] as number | null);
  return value === null && metrics?.exposure === 0 ? '— (no position held)' : figureText(value);
}

/** The test run's figure of `metric`. Chosen params with no test run met a test window without a bar (a gap in the data). */
export function testFigure(window: WindowResult, metric: ObjectiveName): string {
  return window.chosen !== undefined && window.test === undefined
    ? '— (no bar in the test window)'
    : windowFigure(window.test?.metrics, metric);
}

/** " (strategy failed ×2, maxDrawdown<0.2 ×5)": why a window's training trials were all left out. */
export function excludedText(excluded: Readonly<Record<string, number>>): string {
  const reasons = Object.entries(excluded).map(([reason, count]) => `${reason} ×${count}`);
  return reasons.length === 0 ? '' : ` (${reasons.join(', ')})`;
}

/** "fast=10 slow=30", or "no trial qualified (…): held cash". */
export function chosenText(window: WindowResult): string {
  return window.chosen === undefined
    ? `no trial qualified${excludedText(window.excluded)}: held cash`
    : Object.entries(window.chosen.params)
        .map(([key, value]) => `${key}=${value}`)
        .join(' ');
}

/** The chosen params may still throw on the test window: its figures then stop at the error. */
export function testFailure(window: WindowResult): string | undefined {
  return window.test?.metrics.failure ?? undefined;
}

/** A window without a figure (no position held, no trial qualified) is left out of a mean: " (over 19 of 21 windows: …)". */
function meanOverText(outcomes: readonly (TrialMetrics | undefined)[], metric: ObjectiveName): string {
  const known = outcomes.filter((metrics) => metrics !== undefined && metrics[metric] !== null).length;
  return known === outcomes.length ? '' : ` (over ${known} of ${outcomes.length} windows: the others have no figure)`;
}

/** meanOverText of the in-sample (chosen trials') and out-of-sample (test runs') means: each may be over other windows. */
export function meansOverText(
  result: WalkForwardResult,
  metric: ObjectiveName,
): { readonly inSample: string; readonly outOfSample: string } {
  return {
    inSample: meanOverText(
      result.windows.map((window) => window.chosen?.metrics),
      metric,
    ),
    outOfSample: meanOverText(
      result.windows.map((window) => window.test?.metrics),
      metric,
    ),
  };
}
