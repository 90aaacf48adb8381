import { describe, expect, it } from 'vitest';
import { configFromEnv, MissingCredentialsError, OFFICIAL_ENDPOINTS } from '../../src/openapi/config.js';

const credentials = { LONGPORT_APP_KEY: 'key', LONGPORT_APP_SECRET: 'secret', LONGPORT_ACCESS_TOKEN: 'token' };

describe('configFromEnv', () => {
  it('reads the official SDK variables and defaults the endpoints', () => {
    const config = configFromEnv({ ...credentials, LONGPORT_HTTP_URL: 'http://127.0.0.1:9/' });
    expect(config).toMatchObject({ appKey: 'key', appSecret: 'secret', accessToken: 'token', httpUrl: 'http://127.0.0.1:9' });
    expect(config.quoteWsUrl).toBe(OFFICIAL_ENDPOINTS.quoteWsUrl);
  });

  it('names every missing variable', () => {
    expect(() => configFromEnv({ LONGPORT_APP_KEY: 'key' })).toThrow(MissingCredentialsError);
    expect(() => configFromEnv({ LONGPORT_APP_KEY: 'key', LONGPORT_APP_SECRET: ' ' })).toThrow(
      /LONGPORT_APP_SECRET, LONGPORT_ACCESS_TOKEN are not set/,
    );
  });

  it('reads a known token expiry', () => {
    const config = configFromEnv({ ...credentials, LONGPORT_ACCESS_TOKEN_EXPIRED_AT: '2026-12-01T00:00:00Z' });
    expect(config.tokenExpiresAt).toBe(Date.parse('2026-12-01T00:00:00Z'));
  });
});
