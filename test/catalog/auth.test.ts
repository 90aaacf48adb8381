import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { API_KEY, CatalogHarness, TOKEN } from './harness.js';

const harness = new CatalogHarness();
afterEach(() => harness.cleanup());

describe('catalog authentication', () => {
  it('accepts a Bearer token and an X-API-Key on every operation', async () => {
    const catalog = await harness.start();

    const byToken = await catalog.call('POST', '/artists', { json: { name: 'Pescado Rabioso' }, auth: 'bearer' });
    const byKey = await catalog.call('POST', `/artists/${byToken.body.id}/albums`, { json: { name: 'Artaud', year: 1973 }, auth: 'key' });
    const readByKey = await catalog.call('GET', `/artists/${byToken.body.id}`, { auth: 'key' });
    const listByToken = await catalog.call('GET', '/artists', { auth: 'bearer' });

    expect([byToken.status, byKey.status, readByKey.status, listByToken.status]).toEqual([201, 201, 200, 200]);
  });

  it('answers 401 with a Bearer challenge when credentials are missing, before reading the body', async () => {
    const catalog = await harness.start();

    const reply = await catalog.call('POST', '/artists', { raw: 'not even json', contentType: 'text/plain', auth: 'none' });

    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toBe('Bearer realm="catalog"');
    expect(reply.body.error).toBe('unauthorized');
    expect(reply.body.message).toContain('X-API-Key');
  });

  it('answers 401 for a wrong token, a wrong key, and a token sent as a key', async () => {
    const catalog = await harness.start();

    const replies = await Promise.all([
      catalog.call('GET', '/artists', { auth: 'none', headers: { authorization: `Bearer ${TOKEN}x` } }),
      catalog.call('GET', '/artists', { auth: 'none', headers: { authorization: TOKEN } }),
      catalog.call('GET', '/artists', { auth: 'none', headers: { 'x-api-key': API_KEY.slice(0, -1) } }),
      catalog.call('GET', '/artists', { auth: 'none', headers: { 'x-api-key': TOKEN } }),
      catalog.call('GET', '/artists', { auth: 'none', headers: { authorization: `Bearer ${API_KEY}` } }),
    ]);

    for (const reply of replies) {
      expect(reply.status).toBe(401);
      expect(reply.headers['www-authenticate']).toBe('Bearer realm="catalog", error="invalid_token"');
      expect(reply.body).toMatchObject({ error: 'unauthorized', details: [] });
    }
  });

  it('serves the OpenAPI document without credentials', async () => {
    const catalog = await harness.start();

    const reply = await catalog.call('GET', '/openapi.json', { auth: 'none' });

    expect(reply.status).toBe(200);
  });

  it('never writes tokens or keys to the request log', async () => {
    const chunks: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        chunks.push(String(chunk));
        done();
      },
    });
    const catalog = await harness.start({ logDestination: destination });

    await catalog.call('GET', '/artists', { auth: 'bearer' });
    await catalog.call('GET', '/artists', { auth: 'key' });
    await catalog.call('GET', '/artists', { auth: 'none', headers: { authorization: 'Bearer wrong-guess-123' } });
    await catalog.stop();

    const log = chunks.join('');
    expect(log).toContain('incoming request');
    expect(log).toContain('"authorization":"[redacted]"');
    expect(log).toContain('"x-api-key":"[redacted]"');
    for (const secret of [TOKEN, API_KEY, 'wrong-guess-123']) expect(log).not.toContain(secret);
  });
});
