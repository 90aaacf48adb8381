import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, scrubSecrets, silentLogger } from '../../src/log/logger.js';

function capture(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

describe('logger', () => {
  it('redacts secrets at any depth and keeps the rest', () => {
    const out = capture();
    const logger = createLogger({ destination: out.stream });
    logger.info(
      {
        appSecret: 'S3CRET',
        config: { accessToken: 'T0KEN', appKey: 'visible-key' },
        request: { headers: { 'x-api-signature': 'SIG', authorization: 'T0KEN' } },
      },
      'connecting',
    );
    const line = out.text();
    expect(line).toContain('visible-key');
    for (const secret of ['S3CRET', 'T0KEN', 'SIG']) expect(line).not.toContain(secret);
    expect(line).toContain('[redacted]');
  });

  it('has a silent logger that takes every call the code makes and reports every level disabled', () => {
    const child = silentLogger.child({ component: 'x' });

    for (const logger of [silentLogger, child]) {
      for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const) logger[level]({ any: 1 }, 'dropped');
      expect(logger.isLevelEnabled('error')).toBe(false);
      expect(logger.level).toBe('silent');
    }
  });

  it('scrubs known secret values out of free text', () => {
    expect(scrubSecrets('failed with token abcd1234 and secret xyz98765', ['abcd1234', 'xyz98765', undefined])).toBe(
      'failed with token [redacted] and secret [redacted]',
    );
  });
});
