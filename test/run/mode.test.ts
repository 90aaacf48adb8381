import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../src/domain/errors.js';
import { chooseMode } from '../../src/cli/run/mode.js';

const CREDENTIALS = { LONGPORT_APP_KEY: 'key', LONGPORT_APP_SECRET: 'secret', LONGPORT_ACCESS_TOKEN: 'token' };

function refusal(run: () => unknown): InvalidInputError {
  try {
    run();
  } catch (error) {
    if (error instanceof InvalidInputError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('choosing paper or live', () => {
  it('runs paper by default, with no credentials at all', () => {
    expect(chooseMode({}, {})).toEqual({ mode: 'paper' });
    expect(chooseMode({ paper: true }, CREDENTIALS)).toEqual({ mode: 'paper' });
  });

  it('runs live only with --live, --yes and the three credential variables', () => {
    const mode = chooseMode({ live: true, yes: true }, { ...CREDENTIALS, LONGPORT_HTTP_URL: 'http://127.0.0.1:9' });

    expect(mode.mode).toBe('live');
    expect(mode.mode === 'live' ? [mode.config.appKey, mode.config.httpUrl] : []).toEqual(['key', 'http://127.0.0.1:9']);
  });

  it('refuses --live without --yes, naming the flag', () => {
    const error = refusal(() => chooseMode({ live: true }, CREDENTIALS));

    expect([error.message, error.field]).toEqual([
      'refusing to trade live: add --yes to confirm that real orders with real money are wanted',
      '--yes',
    ]);
  });

  it('refuses --live --yes with a variable missing or blank, naming each', () => {
    const error = refusal(() => chooseMode({ live: true, yes: true }, { LONGPORT_APP_KEY: 'key', LONGPORT_APP_SECRET: '  ' }));

    expect([error.message, error.field]).toEqual([
      'refusing to trade live: set LONGPORT_APP_SECRET, LONGPORT_ACCESS_TOKEN (your LongPort app key, app secret and access token)',
      'LONGPORT_APP_SECRET',
    ]);
  });

  it('refuses --yes without --live and --paper with --live', () => {
    expect(refusal(() => chooseMode({ yes: true }, CREDENTIALS)).message).toMatch(/^--yes confirms --live/);
    expect(refusal(() => chooseMode({ paper: true, live: true, yes: true }, CREDENTIALS)).message).toBe(
      '--paper and --live contradict each other: choose one',
    );
  });
});
