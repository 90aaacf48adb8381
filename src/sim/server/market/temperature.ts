// Generated market temperature (the replay has no source for it): for each market and market date a temperature,
// valuation and sentiment between 0 and 100 drawn from the seed, so a day always reads the same, with a word for
// the temperature. History lists the market's trading days of a range, up to the market date.
import type { Market } from '../../../domain/symbol.js';
import { deriveSeed, SeededRandom } from '../../venue/index.js';

export interface Temperature {
  readonly temperature: number;
  readonly valuation: number;
  readonly sentiment: number;
  readonly description: string;
}

const WORDS = [
  [20, 'Cold'],
  [40, 'Cool'],
  [60, 'Neutral'],
  [80, 'Warm'],
  [101, 'Hot'],
] as const;

export function temperatureOf(market: Market, dayKey: number, seed: number): Temperature {
  const random = new SeededRandom(deriveSeed(seed, `temperature:${market}:${dayKey}`));
  const temperature = Math.round(10 + 80 * random.next());
  return {
    temperature,
    valuation: Math.round(5 + 90 * random.next()),
    sentiment: Math.round(5 + 90 * random.next()),
    description: WORDS.find(([below]) => temperature < below)![1],
  };
}
