import { afterEach, describe, expect, it } from 'vitest';
import { CatalogHarness, type TestCatalog } from './harness.js';

const harness = new CatalogHarness();
afterEach(() => harness.cleanup());

async function addArtist(catalog: TestCatalog, name: string, band: string | null = null): Promise<number> {
  const reply = await catalog.call('POST', '/artists', { json: { name, band } });
  expect(reply.status).toBe(201);
  return reply.body.id as number;
}

describe('catalog artists', () => {
  it('creates an artist with a server-assigned id and a Location that finds it', async () => {
    const catalog = await harness.start();

    const created = await catalog.call('POST', '/artists', {
      json: { name: '  Gustavo Cerati ', description: 'Voz y guitarra', image: 'https://example.com/cerati.jpg', band: ' Soda Stereo ' },
    });

    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'Gustavo Cerati',
      description: 'Voz y guitarra',
      image: 'https://example.com/cerati.jpg',
      band: 'Soda Stereo',
    });
    expect(created.headers['location']).toBe(`/api/v1/artists/${created.body.id}`);
    const fetched = await catalog.call('GET', String(created.headers['location']).replace('/api/v1', ''));
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual({ ...created.body, albums: [] });
  });

  it('fills omitted optional fields with their defaults', async () => {
    const catalog = await harness.start();

    const created = await catalog.call('POST', '/artists', { json: { name: 'Luis Alberto Spinetta' } });

    expect(created.body).toMatchObject({ name: 'Luis Alberto Spinetta', description: null, image: null, band: null });
  });

  it('replaces every field of an artist with PUT and keeps its albums', async () => {
    const catalog = await harness.start();
    const id = await addArtist(catalog, 'Sui Generis');
    await catalog.call('POST', `/artists/${id}/albums`, { json: { name: 'Vida', year: 1972 } });

    const replaced = await catalog.call('PUT', `/artists/${id}`, {
      json: { name: 'Charly García', description: 'Piano y voz', band: 'Sui Géneris' },
    });

    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({ id, name: 'Charly García', description: 'Piano y voz', image: null, band: 'Sui Géneris' });
    const fetched = await catalog.call('GET', `/artists/${id}`);
    expect(fetched.body).toMatchObject({ name: 'Charly García', band: 'Sui Géneris' });
    expect(fetched.body.albums).toHaveLength(1);
  });

  it('answers 404 in the error shape for an unknown artist on GET and PUT', async () => {
    const catalog = await harness.start();

    const fetched = await catalog.call('GET', '/artists/4242');
    const replaced = await catalog.call('PUT', '/artists/4242', { json: { name: 'Nadie' } });

    for (const reply of [fetched, replaced]) {
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual({ error: 'artist_not_found', message: 'no artist with id 4242', details: [] });
    }
  });

  it('lists artists in pages ordered by name, with the total count', async () => {
    const catalog = await harness.start();
    for (const name of ['Virus', 'Almendra', 'Patricio Rey y sus Redonditos de Ricota', 'Los Abuelos de la Nada', 'Manal'])
      await addArtist(catalog, name);

    const first = await catalog.call('GET', '/artists?limit=2');
    const second = await catalog.call('GET', '/artists?limit=2&offset=2');
    const last = await catalog.call('GET', '/artists?limit=2&offset=4');

    expect(first.status).toBe(200);
    expect(first.body.meta).toEqual({ total: 5, limit: 2, offset: 0, next: '/api/v1/artists?limit=2&offset=2' });
    const names = [first, second, last].flatMap((page) => page.body.data.map((artist: { name: string }) => artist.name));
    expect(names).toEqual(['Almendra', 'Los Abuelos de la Nada', 'Manal', 'Patricio Rey y sus Redonditos de Ricota', 'Virus']);
    expect(last.body.data).toHaveLength(1);
    expect(last.body.meta.next).toBeNull();
  });

  it('uses a default page size of 10 and refuses pages larger than 100', async () => {
    const catalog = await harness.start();
    for (let index = 0; index < 25; index += 1) await addArtist(catalog, `Banda ${String(index).padStart(2, '0')}`);

    const page = await catalog.call('GET', '/artists');
    const tooLarge = await catalog.call('GET', '/artists?limit=101');

    expect(page.body.data).toHaveLength(10);
    expect(page.body.meta.total).toBe(25);
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body.details).toEqual([{ in: 'query', path: 'limit', message: 'must be between 1 and 100' }]);
  });

  it('refuses page numbers that are not plain decimal digits, with one detail each', async () => {
    const catalog = await harness.start();
    await addArtist(catalog, 'Almendra');

    const digits = { in: 'query', message: 'must be an integer in decimal digits' };
    for (const [query, path] of [
      ['limit=1e1', 'limit'],
      ['limit=0x5', 'limit'],
      ['limit=%205', 'limit'],
      ['limit=', 'limit'],
      ['offset=', 'offset'],
      ['offset=1.0', 'offset'],
      ['offset=-0', 'offset'],
      ['offset=99999999999999999999', 'offset'],
    ]) {
      const reply = await catalog.call('GET', `/artists?${query}`);
      expect({ query, status: reply.status, details: reply.body.details }).toEqual({ query, status: 400, details: [{ ...digits, path }] });
    }
    const repeated = await catalog.call('GET', '/artists?limit=2&limit=3');
    expect(repeated.body.details).toEqual([{ in: 'query', path: 'limit', message: 'must be given once' }]);
    const beyond = await catalog.call('GET', '/artists?offset=9007199254740992');
    expect(beyond.body.details).toEqual([{ in: 'query', path: 'offset', message: 'must be below 2^53' }]);
    const plain = await catalog.call('GET', '/artists?limit=5&offset=0');
    expect(plain.body.meta).toMatchObject({ limit: 5, offset: 0, total: 1 });
  });

  it('searches names ignoring case and accents, counting only matches', async () => {
    const catalog = await harness.start();
    for (const name of ['León Gieco', 'Charly García', 'Leonardo Favio', 'Fito Páez']) await addArtist(catalog, name);

    const leon = await catalog.call('GET', `/artists?q=${encodeURIComponent('LEON')}`);
    const garcia = await catalog.call('GET', `/artists?q=${encodeURIComponent('garcía')}`);
    const nobody = await catalog.call('GET', '/artists?q=zzz');

    expect(leon.body.data.map((artist: { name: string }) => artist.name)).toEqual(['León Gieco', 'Leonardo Favio']);
    expect(leon.body.meta.total).toBe(2);
    expect(garcia.body.data.map((artist: { name: string }) => artist.name)).toEqual(['Charly García']);
    expect(nobody.body).toEqual({ data: [], meta: { total: 0, limit: 10, offset: 0, next: null } });
  });

  it('treats search text literally, so SQL wildcards match only themselves', async () => {
    const catalog = await harness.start();
    await addArtist(catalog, 'Pappo');
    await addArtist(catalog, '100% Rock');

    const percent = await catalog.call('GET', `/artists?q=${encodeURIComponent('%')}`);

    expect(percent.body.data.map((artist: { name: string }) => artist.name)).toEqual(['100% Rock']);
  });
});
