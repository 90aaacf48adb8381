// The exit status of a failed command: 2 for bad input, 1 otherwise, told by the error's code (a command
// loaded beside the start-up snapshot throws another copy of the error classes).
import { describe, expect, it } from 'vitest';
import { InvalidInputError, TraderError } from '../../src/domain/errors.js';
import { exitCodeFor } from '../../src/cli/errors.js';

describe('the exit status of a failed command', () => {
  it('is 2 for bad input and an unloadable strategy, whichever copy of the error classes threw it', () => {
    expect(exitCodeFor(new InvalidInputError('--port: must be 0 to 65535', '--port'))).toBe(2);
    expect(exitCodeFor(new TraderError('STRATEGY_LOAD_FAILED', 'cannot load'))).toBe(2);
    class OtherCopyOfTraderError extends Error {
      readonly code = 'INVALID_INPUT';
    }
    expect(exitCodeFor(new OtherCopyOfTraderError('bad flag'))).toBe(2);
  });

  it('is 1 for any other failure', () => {
    expect(exitCodeFor(new TraderError('BROKER_REJECTED', 'rejected'))).toBe(1);
    expect(exitCodeFor(Object.assign(new Error('no such file'), { code: 'ENOENT' }))).toBe(1);
    expect(exitCodeFor('a string')).toBe(1);
    expect(exitCodeFor({ code: 'INVALID_INPUT' })).toBe(1);
  });
});
