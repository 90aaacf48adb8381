// The runtime's clock in paper mode: the time is the replay's market time (intents, journal rows, risk
// sessions and order-rate windows all read the market's clock, as in a backtest), while timers run on wall
// time, because what the runtime waits for (request timeouts, lookup back-off, periodic reconciliation) is
// the network, whose pace does not change with the replay's speed.
import type { Clock } from '../domain/clock.js';

export function paperClock(market: Pick<Clock, 'now'>, wall: Clock): Clock {
  return {
    now: () => market.now(),
    setTimeout: (callback, delayMs) => wall.setTimeout(callback, delayMs),
    setInterval: (callback, intervalMs) => wall.setInterval(callback, intervalMs),
  };
}
