import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { CatalogHarness } from './harness.js';

const harness = new CatalogHarness();
afterEach(() => harness.cleanup());

describe('catalog errors', () => {
  it('names every bad field of a body at once with its path', async () => {
    const catalog = await harness.start();

    const reply = await catalog.call('POST', '/artists', {
      json: { name: '   ', description: 'x'.repeat(4001), image: 'ftp://example.com/a.png', band: 42, genre: 'rock' },
    });

    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe('invalid_request');
    expect(reply.body.details).toEqual([
      { in: 'body', path: 'name', message: 'must not be empty' },
      { in: 'body', path: 'description', message: 'must be at most 4000 characters' },
      { in: 'body', path: 'image', message: 'must be an absolute http(s) URL' },
      { in: 'body', path: 'band', message: 'must be a string or null' },
      { in: 'body', path: 'genre', message: 'is not a known field' },
    ]);
    expect(reply.body.message).toContain('body name: must not be empty');
  });

  it('requires a name and bounds its length', async () => {
    const catalog = await harness.start();

    const missing = await catalog.call('POST', '/artists', { json: { band: 'Serú Girán' } });
    const tooLong = await catalog.call('POST', '/artists', { json: { name: 'a'.repeat(201) } });
    const longest = await catalog.call('POST', '/artists', { json: { name: 'a'.repeat(200) } });

    expect(missing.body.details).toEqual([{ in: 'body', path: 'name', message: 'is required' }]);
    expect(tooLong.body.details).toEqual([{ in: 'body', path: 'name', message: 'must be at most 200 characters' }]);
    expect(longest.status).toBe(201);
  });

  it('refuses an empty or blank band instead of storing an empty name', async () => {
    const catalog = await harness.start();
    const artist = await catalog.call('POST', '/artists', { json: { name: 'Charly García', band: 'Serú Girán' } });

    const blank = await catalog.call('POST', '/artists', { json: { name: 'Nito Mestre', band: '   ' } });
    const empty = await catalog.call('PUT', `/artists/${artist.body.id}`, { json: { name: 'Charly García', band: '' } });
    const none = await catalog.call('POST', '/artists', { json: { name: 'Nito Mestre', band: null } });

    for (const reply of [blank, empty]) {
      expect(reply.status).toBe(400);
      expect(reply.body.details).toEqual([{ in: 'body', path: 'band', message: 'must not be empty; send null for no band' }]);
    }
    expect(none.body.band).toBeNull();
    expect((await catalog.call('GET', `/artists/${artist.body.id}`)).body.band).toBe('Serú Girán');
  });

  it('refuses text with a lone UTF-16 surrogate, which the database could not store as sent', async () => {
    const catalog = await harness.start();
    const artist = await catalog.call('POST', '/artists', { json: { name: 'Los Gatos 🐈' } });

    const lone = '{"name": "Moris \\ud800", "description": "\\udc00", "band": "x\\ud83d"}';
    const created = await catalog.call('POST', '/artists', { raw: lone, contentType: 'application/json' });
    const replaced = await catalog.call('PUT', `/artists/${artist.body.id}`, { raw: lone, contentType: 'application/json' });
    const album = await catalog.call('POST', `/artists/${artist.body.id}/albums`, {
      raw: '{"name": "Viento \\udfff", "year": 1968}',
      contentType: 'application/json',
    });

    const message = 'must be valid Unicode text (it holds a lone UTF-16 surrogate)';
    for (const reply of [created, replaced]) {
      expect(reply.status).toBe(400);
      expect(reply.body.details).toEqual(['name', 'description', 'band'].map((path) => ({ in: 'body', path, message })));
    }
    expect(album.body.details).toEqual([{ in: 'body', path: 'name', message }]);
    const stored = await catalog.call('GET', `/artists/${artist.body.id}`);
    expect(stored.body).toMatchObject({ name: 'Los Gatos 🐈', albums: [] });
    expect((await catalog.call('GET', '/artists')).body.meta.total).toBe(1);
  });

  it('refuses unknown query parameters on every operation, not only the artist list', async () => {
    const catalog = await harness.start();
    const artist = await catalog.call('POST', '/artists', { json: { name: 'Pescado Rabioso' } });
    const id = artist.body.id as number;
    for (const year of [1972, 1973]) await catalog.call('POST', `/artists/${id}/albums`, { json: { name: `Disco ${year}`, year } });

    const replies = [
      await catalog.call('GET', `/artists/${id}/albums?limit=1`),
      await catalog.call('GET', `/artists/${id}?limit=1`),
      await catalog.call('GET', `/artists/${id}/albums/1?limit=1`),
      await catalog.call('PUT', `/artists/${id}?limit=1`, { json: { name: 'Pescado 2' } }),
      await catalog.call('POST', `/artists/${id}/albums?limit=1`, { json: { name: 'Artaud', year: 1973 } }),
      await catalog.call('POST', '/artists?limit=1', { json: { name: 'Almendra' } }),
    ];

    for (const reply of replies) {
      expect(reply.status).toBe(400);
      expect(reply.body.details).toEqual([{ in: 'query', path: 'limit', message: 'is not a known field' }]);
    }
    const stored = await catalog.call('GET', `/artists/${id}`);
    expect(stored.body).toMatchObject({ name: 'Pescado Rabioso' });
    expect(stored.body.albums).toHaveLength(2);
    expect((await catalog.call('GET', '/artists')).body.meta.total).toBe(1);
  });

  it('reports a bad path id together with a bad body', async () => {
    const catalog = await harness.start();

    const reply = await catalog.call('POST', '/artists/0x10/albums', { json: { name: 'Artaud' } });

    expect(reply.status).toBe(400);
    expect(reply.body.details).toEqual([
      { in: 'path', path: 'artistId', message: 'must be a positive integer id' },
      { in: 'body', path: 'year', message: 'is required' },
    ]);
  });

  it('rejects a body that is JSON but not an object', async () => {
    const catalog = await harness.start();

    const reply = await catalog.call('POST', '/artists', { json: ['Spinetta'] });

    expect(reply.status).toBe(400);
    expect(reply.body.details).toEqual([{ in: 'body', path: '', message: 'request body must be a JSON object' }]);
  });

  it('answers 400 invalid_json for a malformed JSON body', async () => {
    const catalog = await harness.start();

    const reply = await catalog.call('POST', '/artists', { raw: '{"name": "Pappo"', contentType: 'application/json' });

    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ error: 'invalid_json', message: 'request body is not valid JSON', details: [] });
  });

  it('answers 413 for a body over the limit', async () => {
    const catalog = await harness.start({ bodyLimit: 1024 });

    const reply = await catalog.call('POST', '/artists', { json: { name: 'Pappo', description: 'x'.repeat(2000) } });

    expect(reply.status).toBe(413);
    expect(reply.body).toEqual({ error: 'payload_too_large', message: 'request body exceeds 1024 bytes', details: [] });
  });

  it('answers 413 for a body over the default 64 KiB limit', async () => {
    const catalog = await harness.start();

    const reply = await catalog.call('POST', '/artists', { json: { name: 'Pappo', description: 'x'.repeat(70_000) } });

    expect(reply.status).toBe(413);
  });

  it('answers 415 for a body that is not JSON, with or without a content type', async () => {
    const catalog = await harness.start();

    const text = await catalog.call('POST', '/artists', { raw: 'name=Pappo', contentType: 'text/plain' });
    const form = await catalog.call('POST', '/artists', { raw: 'name=Pappo', contentType: 'application/x-www-form-urlencoded' });
    const untyped = await catalog.call('POST', '/artists', { raw: '{"name":"Pappo"}' });

    for (const reply of [text, form, untyped]) {
      expect(reply.status).toBe(415);
      expect(reply.body.error).toBe('unsupported_media_type');
    }
  });

  it('accepts JSON declared with a charset', async () => {
    const catalog = await harness.start();

    const reply = await catalog.call('POST', '/artists', { json: { name: 'Pappo' }, contentType: 'application/json; charset=utf-8' });

    expect(reply.status).toBe(201);
  });

  it('answers 405 with an Allow header for a wrong method on a known path, before reading the body', async () => {
    const catalog = await harness.start();

    const deleted = await catalog.call('DELETE', '/artists/1');
    const patched = await catalog.call('PATCH', '/artists', { raw: 'not json', contentType: 'text/plain' });
    const putAlbums = await catalog.call('PUT', '/artists/1/albums', { json: { name: 'x', year: 2000 } });

    expect(deleted.status).toBe(405);
    expect(deleted.headers['allow']).toBe('GET, HEAD, PUT');
    expect(deleted.body.error).toBe('method_not_allowed');
    expect(patched.status).toBe(405);
    expect(patched.headers['allow']).toBe('GET, HEAD, POST');
    expect(putAlbums.headers['allow']).toBe('GET, HEAD, POST');
  });

  it('answers 404 in the same shape for an unknown route', async () => {
    const catalog = await harness.start();

    const reply = await catalog.call('GET', '/songs');
    const outside = await catalog.call('GET', '/../../health');

    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ error: 'route_not_found', message: 'no route GET /api/v1/songs', details: [] });
    expect(outside.status).toBe(404);
    expect(outside.body.error).toBe('route_not_found');
  });

  it('answers a URL with raw non-ASCII bytes, or percent-escapes that are not UTF-8, in the same shape', async () => {
    const log: string[] = [];
    const logDestination = new Writable({
      write(chunk, _encoding, done) {
        log.push(String(chunk));
        done();
      },
    });
    const catalog = await harness.start({ logDestination });
    const { port } = new URL(catalog.server.origin);

    const raw = await rawRequest(Number(port), Buffer.concat([Buffer.from('GET /api/v1/artists/'), Buffer.from([0xff, 0xfe])]));
    const escaped = await catalog.call('GET', '/artists/%ff');

    expect(raw.status).toBe(400);
    expect(raw.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(raw.body)).toEqual({
      error: 'invalid_request',
      message:
        'malformed HTTP request: the request line or a header has bytes HTTP does not allow (percent-encode non-ASCII characters in URLs)',
      details: [],
    });
    expect(log.map((line) => JSON.parse(line) as { msg: string; code?: string; status?: number })).toContainEqual(
      expect.objectContaining({ msg: 'rejected a request Node could not parse', code: 'HPE_INVALID_URL', status: 400 }),
    );
    expect(escaped.status).toBe(400);
    expect(escaped.body).toEqual({
      error: 'invalid_request',
      message: 'the URL path is not valid: its percent-escapes do not decode to UTF-8 text',
      details: [],
    });
  });
});

/** Sends a request line as raw bytes (no HTTP client would send them) and reads the answer until the server closes. */
function rawRequest(port: number, requestLine: Buffer): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers = Object.fromEntries(
        headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
    socket.write(Buffer.concat([requestLine, Buffer.from(' HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')]));
  });
}
