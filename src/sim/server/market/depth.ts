// A synthesised order book around the last price: five levels a side on the market's price grid (the HKEX
// spread table, cents in the US), with volumes and order counts drawn from a stream seeded by the symbol
// and the quote's sequence, so the same replay always shows the same book.
import { Fixed } from '../../../domain/fixed.js';
import { Price } from '../../../domain/price.js';
import type { Market } from '../../../domain/symbol.js';
import type { DepthLevelMessage } from '../../../openapi/socket/messages.js';
import { deriveSeed, SeededRandom } from '../../venue/index.js';

const DEPTH_LEVELS = 5;

/** [upper bound of the price band, tick] pairs of the HKEX spread table. */
const HK_SPREADS: readonly (readonly [number, string])[] = [
  [0.25, '0.001'],
  [0.5, '0.005'],
  [10, '0.01'],
  [20, '0.02'],
  [100, '0.05'],
  [200, '0.1'],
  [500, '0.2'],
  [1000, '0.5'],
  [2000, '1'],
  [5000, '2'],
  [Number.POSITIVE_INFINITY, '5'],
];

function tickSize(market: Market, price: number): Price {
  switch (market) {
    case 'HK':
      return Price.of(HK_SPREADS.find(([upper]) => price < upper)![1]);
    case 'US':
      return Price.of(price < 1 ? '0.0001' : '0.01');
    case 'SG':
      return Price.of(price < 0.2 ? '0.001' : price < 1 ? '0.005' : '0.01');
    case 'CN':
      return Price.of('0.01');
  }
}

export interface BookSides {
  readonly ask: DepthLevelMessage[];
  readonly bid: DepthLevelMessage[];
}

export function synthesiseDepth(market: Market, symbol: string, price: number, sequence: number, seed: number): BookSides {
  const tick = tickSize(market, price);
  const ticks = Price.of(price).dividedBy(tick, 0, 'floor');
  const bestBid = tick.times(ticks);
  const random = new SeededRandom(deriveSeed(seed, `depth:${symbol}:${sequence}`));
  const level = (position: number, levelPrice: Price): DepthLevelMessage => ({
    position,
    price: levelPrice.toFixed(),
    volume: 100 * (1 + Math.floor(random.next() * 50)),
    orderNum: 1 + Math.floor(random.next() * 20),
  });
  const ask: DepthLevelMessage[] = [];
  const bid: DepthLevelMessage[] = [];
  for (let position = 1; position <= DEPTH_LEVELS; position++) {
    ask.push(level(position, bestBid.plus(tick.times(Fixed.of(position)))));
    const bidPrice = bestBid.minus(tick.times(Fixed.of(position - 1)));
    if (bidPrice.isPositive()) bid.push(level(position, bidPrice));
  }
  return { ask, bid };
}
