import { describe, expect, it } from 'vitest';
import { createEquityRecorder } from '../../../src/backtest/metrics/equity-recorder.js';

describe('equity recorder', () => {
  it('keeps every point in order while growing past its initial capacity, from one point object filled again each time', () => {
    const recorder = createEquityRecorder(1);
    const point = { time: 0, equity: 0, exposed: false };
    for (let index = 0; index < 40; index += 1) {
      point.time = index * 1000;
      point.equity = 100 + index;
      point.exposed = index % 2 === 0;
      recorder.record(point);
    }
    const curve = recorder.curve();
    expect(curve.times.length).toBe(40);
    expect(curve.times[39]).toBe(39_000);
    expect(curve.equity[17]).toBe(117);
    expect(Array.from(curve.exposed).slice(0, 4)).toEqual([1, 0, 1, 0]);
  });
});
