import { describe, expect, it } from 'vitest';
import { CLEAR_LINE, createProgress, type ProgressStream } from '../../src/backtest/progress.js';
import { VirtualClock } from '../../src/clock/virtual-clock.js';

function terminal(isTTY: boolean, columns = 120): ProgressStream & { output: string } {
  const stream = {
    isTTY,
    columns,
    output: '',
    write(text: string) {
      stream.output += text;
      return true;
    },
  };
  return stream;
}

describe('progress bar', () => {
  it('draws the bar for a run projected to take longer than two seconds', () => {
    const clock = new VirtualClock(0);
    const stream = terminal(true);
    const progress = createProgress({ clock, stream });

    progress.start(1_000_000);
    clock.advanceBy(300);
    progress.update(100_000); // 10 % in 300 ms → about 3 s in all

    expect(progress.visible).toBe(true);
    expect(stream.output).toContain(' 10% | 100,000/1,000,000 bars');
  });

  it('draws the whole line on a terminal that says it has 0 columns (an unsized pseudo-terminal)', () => {
    const clock = new VirtualClock(0);
    const stream = terminal(true, 0);
    const progress = createProgress({ clock, stream });

    progress.start(1_000_000);
    clock.advanceBy(300);
    progress.update(100_000);

    expect(stream.output).toContain(' 10% | 100,000/1,000,000 bars');
  });

  it('narrows the bar on an 80-column terminal so the ETA stays on the line', () => {
    const clock = new VirtualClock(0);
    const stream = terminal(true, 80);
    const progress = createProgress({ clock, stream, label: 'optimize', unit: 'trials' });

    progress.start(3_488);
    clock.advanceBy(1_500);
    progress.update(1_761);

    const line = stream.output.slice(CLEAR_LINE.length);
    expect(line.length).toBeLessThanOrEqual(79);
    expect(line).toMatch(/^optimize █+░+ {2}50% \| 1,761\/3,488 trials \| +2s elapsed \| ETA +1s$/);
  });

  it('stays silent for a run projected to finish quickly', () => {
    const clock = new VirtualClock(0);
    const stream = terminal(true);
    const progress = createProgress({ clock, stream });

    progress.start(1_000_000);
    clock.advanceBy(300);
    progress.update(500_000); // half in 300 ms → 600 ms in all
    clock.advanceBy(300);
    progress.update(1_000_000);
    progress.stop();

    expect(stream.output).toBe('');
  });

  it('waits for the settle time before judging the run', () => {
    const clock = new VirtualClock(0);
    const stream = terminal(true);
    const progress = createProgress({ clock, stream });

    progress.start(1_000_000);
    clock.advanceBy(100);
    progress.update(1_000); // looks slow, but only 100 ms in

    expect(stream.output).toBe('');
  });

  it('redraws at most once per redraw interval', () => {
    const clock = new VirtualClock(0);
    const stream = terminal(true);
    const progress = createProgress({ clock, stream, redrawMs: 100 });
    progress.start(100_000);
    clock.advanceBy(500);
    progress.update(10_000);
    const afterFirst = stream.output;

    clock.advanceBy(50);
    progress.update(11_000);
    expect(stream.output).toBe(afterFirst);

    clock.advanceBy(50);
    progress.update(12_000);
    expect(stream.output).toContain(' 12% | 12,000/100,000 bars');
  });

  it('clears its line on stop so the summary starts clean', () => {
    const clock = new VirtualClock(0);
    const stream = terminal(true);
    const progress = createProgress({ clock, stream });
    progress.start(10);
    clock.advanceBy(1000);
    progress.update(1);
    progress.stop();

    expect(stream.output.endsWith('\r\u001b[K')).toBe(true);
    expect(progress.visible).toBe(false);
  });

  it('writes nothing off a terminal for a run shorter than the line interval', () => {
    const clock = new VirtualClock(0);
    const stream = terminal(false);
    const progress = createProgress({ clock, stream });
    progress.start(1_000_000);
    clock.advanceBy(10_000);
    progress.update(1);
    progress.stop();

    expect(stream.output).toBe('');
  });

  it('writes a plain line every 30 s off a terminal (a log file, CI): counts, elapsed and ETA, no control characters', () => {
    const clock = new VirtualClock(0);
    const stream = terminal(false);
    const progress = createProgress({ clock, stream, label: 'optimize', unit: 'trials', minimumMs: 0 });
    progress.start(10_000);
    clock.advanceBy(29_000);
    progress.update(900);
    expect(stream.output).toBe('');

    clock.advanceBy(999);
    progress.update(1_000);
    clock.advanceBy(1);
    expect(stream.output).toBe('optimize: 10% | 1,000/10,000 trials | 30s elapsed | ETA 4m30s\n');

    clock.advanceBy(20_000);
    progress.update(1_700);
    expect(stream.output.split('\n')).toHaveLength(2);

    clock.advanceBy(9_999);
    progress.update(2_000);
    clock.advanceBy(1);
    expect(stream.output.split('\n')[1]).toBe('optimize: 20% | 2,000/10,000 trials | 1m00s elapsed | ETA 4m00s');
    progress.stop();
    clock.advanceBy(60_000);
    progress.update(3_000);
    expect(stream.output.split('\n')).toHaveLength(3);
    expect(stream.output.includes('\u001b') || stream.output.includes('\r')).toBe(false);
  });

  it('off a terminal, still writes its line every 30 s while no update comes (a run waiting on its queue)', () => {
    const clock = new VirtualClock(0);
    const stream = terminal(false);
    const progress = createProgress({ clock, stream, label: 'optimize', unit: 'trials', minimumMs: 0 });
    progress.start(10_000);
    clock.advanceBy(10_000);
    progress.update(9_990);
    clock.advanceBy(20_000);
    expect(stream.output).toBe('optimize: 99% | 9,990/10,000 trials | 30s elapsed | ETA 0s\n');
    clock.advanceBy(60_000);
    expect(stream.output.split('\n').slice(1)).toEqual([
      'optimize: 99% | 9,990/10,000 trials | 1m00s elapsed | ETA 0s',
      'optimize: 99% | 9,990/10,000 trials | 1m30s elapsed | ETA 0s',
      '',
    ]);
    progress.stop();
    clock.advanceBy(60_000);
    expect(stream.output.split('\n')).toHaveLength(4);
  });
});
