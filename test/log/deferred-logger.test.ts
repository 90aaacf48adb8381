import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createDeferredLogger } from '../../src/log/deferred-logger.js';
import { createLogger, type Logger, type LoggerOptions } from '../../src/log/logger.js';

function capture(): { stream: Writable; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  // Times differ between any two loggers; everything else must not.
  const lines = () =>
    chunks
      .join('')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => {
        const { time: _time, ...rest } = JSON.parse(line) as Record<string, unknown>;
        return rest;
      });
  return { stream, lines };
}

// The same cases against the plain logger and the deferred one: the deferred one only starts pino later.
const makers: readonly [string, (options: LoggerOptions) => Logger][] = [
  ['createLogger', createLogger],
  ['createDeferredLogger', createDeferredLogger],
];

describe.each(makers)('%s', (_name, make) => {
  it('writes the lines at its level and above, with the bindings of children, secrets redacted', () => {
    const out = capture();
    const logger = make({ level: 'warn', destination: out.stream });
    const child = logger.child({ strategy: 'dca' });

    logger.info('dropped');
    child.debug({ any: 1 }, 'dropped too');
    child.warn({ symbol: 'SPX.US', accessToken: 'T0KEN' }, 'amount too small');
    logger.error(new Error('boom'), 'failed');
    child.child({ bar: 3 }).fatal('stop');

    const lines = out.lines();
    expect(lines.map((line) => [line['level'], line['msg'], line['strategy'], line['bar']])).toEqual([
      [40, 'amount too small', 'dca', undefined],
      [50, 'failed', undefined, undefined],
      [60, 'stop', 'dca', 3],
    ]);
    expect(lines[0]).toMatchObject({ symbol: 'SPX.US', accessToken: '[redacted]' });
    expect(lines[1]).toMatchObject({ err: { message: 'boom', type: 'Error' } });
  });

  it('tells which levels are enabled, itself and its children', () => {
    const logger = make({ level: 'info', destination: capture().stream });

    for (const one of [logger, logger.child({ component: 'x' })]) {
      expect([one.isLevelEnabled('debug'), one.isLevelEnabled('info'), one.isLevelEnabled('error')]).toEqual([false, true, true]);
      expect(one.level).toBe('info');
    }
  });
});
