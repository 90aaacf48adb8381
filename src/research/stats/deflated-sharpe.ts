// The deflated Sharpe ratio (Bailey and López de Prado, 2014): the probability that the best trial's true
// Sharpe ratio is above zero, after accounting for how many trials were tried and for non-normal returns.
import { normalCdf, normalQuantile } from './normal.js';

const EULER_MASCHERONI = 0.5772156649015329;

export interface DeflatedSharpeInput {
  /** Per-bar (not annualised) Sharpe ratio of every trial tried, the best one included. */
  readonly trialSharpes: readonly number[];
  /** The selected trial's per-bar Sharpe ratio. */
  readonly sharpe: number;
  /** Its returns' skewness and kurtosis (not excess: 3 for normal returns). */
  readonly skewness: number;
  readonly kurtosis: number;
  /** Its number of returns. */
  readonly observations: number;
}

export interface DeflatedSharpe {
  /** The Sharpe ratio the best of this many unskilled trials would reach by luck (SR₀, per bar). */
  readonly expectedMaxSharpe: number;
  /** Probability that the selected trial's true Sharpe ratio exceeds SR₀. */
  readonly probability: number;
  readonly trials: number;
}

/**
 * SR₀ = √V[SR] · ((1 − γ) Φ⁻¹(1 − 1/N) + γ Φ⁻¹(1 − 1/(N e))), with V[SR] the sample variance (n − 1) of the
 * trials' Sharpe ratios; DSR = Φ((SR − SR₀) √(T − 1) / √(1 − γ₃ SR + (γ₄ − 1)/4 SR²)). Null with fewer than
 * two trials or two observations.
 */
export function deflatedSharpe(input: DeflatedSharpeInput): DeflatedSharpe | null {
  const trials = input.trialSharpes.length;
  if (trials < 2 || input.observations < 2) return null;
  const mean = input.trialSharpes.reduce((sum, value) => sum + value, 0) / trials;
  const variance = input.trialSharpes.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (trials - 1);
  const expectedMaxSharpe =
    Math.sqrt(variance) *
    ((1 - EULER_MASCHERONI) * normalQuantile(1 - 1 / trials) + EULER_MASCHERONI * normalQuantile(1 - 1 / (trials * Math.E)));
  const { sharpe, skewness, kurtosis, observations } = input;
  const denominator = 1 - skewness * sharpe + ((kurtosis - 1) / 4) * sharpe * sharpe;
  if (!(denominator > 0)) return null;
  const probability = normalCdf(((sharpe - expectedMaxSharpe) * Math.sqrt(observations - 1)) / Math.sqrt(denominator));
  return { expectedMaxSharpe, probability, trials };
}
