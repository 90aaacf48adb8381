// Per-bar returns of the equity curve and the annualised risk-adjusted ratios built on them (float math).

/** Below this per-bar standard deviation the curve counts as flat: float noise must not make a huge ratio. */
const FLAT = 1e-14;

/**
 * Simple return of each equity point over the previous one; the first is over the initial cash. Below
 * zero (a short that lost more than the account), the change is taken over the size of the previous
 * equity: value / previous − 1 would turn each further loss into a gain (−100 after −50: +100 %).
 * After an equity of exactly 0 the return is 0.
 */
export function barReturns(equity: ArrayLike<number>, initialEquity: number): Float64Array {
  const returns = new Float64Array(equity.length);
  let previous = initialEquity;
  for (let index = 0; index < equity.length; index += 1) {
    const value = equity[index]!;
    returns[index] = previous > 0 ? value / previous - 1 : previous < 0 ? (previous - value) / previous : 0;
    previous = value;
  }
  return returns;
}

/** The per-bar rate that compounds to the annual risk-free rate over periodsPerYear bars. */
export function perBarRate(annualRate: number, periodsPerYear: number): number {
  return annualRate === 0 ? 0 : (1 + annualRate) ** (1 / periodsPerYear) - 1;
}

/**
 * Annualised Sharpe ratio: mean excess per-bar return over its sample standard deviation (n − 1),
 * times √periodsPerYear. Null with fewer than 2 returns or a flat curve.
 */
export function sharpeRatio(returns: Float64Array, periodsPerYear: number, annualRiskFree = 0): number | null {
  const count = returns.length;
  if (count < 2) return null;
  const riskFree = perBarRate(annualRiskFree, periodsPerYear);
  const mean = meanOf(returns) - riskFree;
  let squares = 0;
  for (let index = 0; index < count; index += 1) {
    const deviation = returns[index]! - riskFree - mean;
    squares += deviation * deviation;
  }
  const deviation = Math.sqrt(squares / (count - 1));
  return deviation < FLAT ? null : (mean / deviation) * Math.sqrt(periodsPerYear);
}

/**
 * Annualised Sortino ratio: mean excess per-bar return over the downside deviation
 * √(Σ min(0, excess)² / n), times √periodsPerYear. Null with fewer than 2 returns or no losing bar.
 */
export function sortinoRatio(returns: Float64Array, periodsPerYear: number, annualRiskFree = 0): number | null {
  const count = returns.length;
  if (count < 2) return null;
  const riskFree = perBarRate(annualRiskFree, periodsPerYear);
  let squares = 0;
  for (let index = 0; index < count; index += 1) {
    const excess = returns[index]! - riskFree;
    if (excess < 0) squares += excess * excess;
  }
  const downside = Math.sqrt(squares / count);
  return downside < FLAT ? null : ((meanOf(returns) - riskFree) / downside) * Math.sqrt(periodsPerYear);
}

function meanOf(values: Float64Array): number {
  let sum = 0;
  for (let index = 0; index < values.length; index += 1) sum += values[index]!;
  return sum / values.length;
}
