import { afterEach, describe, expect, it } from 'vitest';
import { CatalogHarness, type TestCatalog } from './harness.js';

const harness = new CatalogHarness();
afterEach(() => harness.cleanup());

async function addArtist(catalog: TestCatalog, name: string): Promise<number> {
  const reply = await catalog.call('POST', '/artists', { json: { name, band: null } });
  return reply.body.id as number;
}

describe('catalog albums', () => {
  it('adds an album to an artist, with a Location that finds it', async () => {
    const catalog = await harness.start();
    const artistId = await addArtist(catalog, 'Serú Girán');

    const created = await catalog.call('POST', `/artists/${artistId}/albums`, {
      json: { name: 'La grasa de las capitales', year: 1979, image: 'http://example.com/grasa.png' },
    });

    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      artistId,
      name: 'La grasa de las capitales',
      year: 1979,
      image: 'http://example.com/grasa.png',
    });
    expect(created.headers['location']).toBe(`/api/v1/artists/${artistId}/albums/${created.body.id}`);
    const fetched = await catalog.call('GET', String(created.headers['location']).replace('/api/v1', ''));
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(created.body);
  });

  it("returns an artist's albums oldest first, with the artist and on their own", async () => {
    const catalog = await harness.start();
    const artistId = await addArtist(catalog, 'Los Redondos');
    for (const [name, year] of [
      ['Lobo suelto, cordero atado', 1993],
      ['Gulp!', 1985],
      ['Oktubre', 1986],
    ] as const) {
      await catalog.call('POST', `/artists/${artistId}/albums`, { json: { name, year } });
    }

    const artist = await catalog.call('GET', `/artists/${artistId}`);
    const albums = await catalog.call('GET', `/artists/${artistId}/albums`);

    expect(artist.body.albums.map((album: { year: number }) => album.year)).toEqual([1985, 1986, 1993]);
    expect(albums.status).toBe(200);
    expect(albums.body).toEqual(artist.body.albums);
  });

  it('answers 404 when the artist does not exist, storing nothing', async () => {
    const catalog = await harness.start();

    const created = await catalog.call('POST', '/artists/77/albums', { json: { name: 'Huérfano', year: 1990 } });
    const listed = await catalog.call('GET', '/artists/77/albums');

    expect(created.status).toBe(404);
    expect(created.body.error).toBe('artist_not_found');
    expect(listed.status).toBe(404);
  });

  it('answers 404 for an album id that belongs to no album of that artist', async () => {
    const catalog = await harness.start();
    const first = await addArtist(catalog, 'Virus');
    const second = await addArtist(catalog, 'Los Twist');
    const album = await catalog.call('POST', `/artists/${first}/albums`, { json: { name: 'Locura', year: 1985 } });

    const wrongArtist = await catalog.call('GET', `/artists/${second}/albums/${album.body.id}`);

    expect(wrongArtist.status).toBe(404);
    expect(wrongArtist.body.error).toBe('album_not_found');
  });

  it('accepts years from 1900 to the year after the clock says it is, and nothing outside', async () => {
    const catalog = await harness.start();
    const artistId = await addArtist(catalog, 'Anunciados');

    const statuses = [];
    for (const year of [1899, 1900, 2025, 2026]) {
      statuses.push((await catalog.call('POST', `/artists/${artistId}/albums`, { json: { name: `Disco ${year}`, year } })).status);
    }
    const fractional = await catalog.call('POST', `/artists/${artistId}/albums`, { json: { name: 'Medio', year: 1999.5 } });
    const text = await catalog.call('POST', `/artists/${artistId}/albums`, { json: { name: 'Texto', year: '1999' } });
    const missing = await catalog.call('POST', `/artists/${artistId}/albums`, { json: { name: 'Sin año' } });

    expect(statuses).toEqual([400, 201, 201, 400]);
    expect(fractional.body.details).toEqual([{ in: 'body', path: 'year', message: 'must be an integer year' }]);
    expect(text.body.details).toEqual([{ in: 'body', path: 'year', message: 'must be an integer year' }]);
    expect(missing.body.details).toEqual([{ in: 'body', path: 'year', message: 'is required' }]);
  });

  it('moves the latest accepted year on when the year turns while the server runs, in the document too', async () => {
    let now = Date.UTC(2024, 11, 31, 23, 59);
    const catalog = await harness.start({ now: () => now });
    const artistId = await addArtist(catalog, 'Anunciados');

    const before = await catalog.call('POST', `/artists/${artistId}/albums`, { json: { name: 'Disco 2026', year: 2026 } });
    now = Date.UTC(2025, 0, 1, 0, 1);
    const after = await catalog.call('POST', `/artists/${artistId}/albums`, { json: { name: 'Disco 2026', year: 2026 } });
    const tooLate = await catalog.call('POST', `/artists/${artistId}/albums`, { json: { name: 'Disco 2027', year: 2027 } });
    const doc = await catalog.call('GET', '/openapi.json', { auth: 'none' });

    expect(before.body.details).toEqual([{ in: 'body', path: 'year', message: 'must be between 1900 and 2025' }]);
    expect(after.status).toBe(201);
    expect(tooLate.body.details).toEqual([{ in: 'body', path: 'year', message: 'must be between 1900 and 2026' }]);
    expect(doc.body.components.schemas.AlbumInput.properties.year).toEqual({ type: 'integer', minimum: 1900, maximum: 2026 });
  });

  it('stores every one of 100 albums posted at once, each with its own id', async () => {
    const catalog = await harness.start();
    const artistId = await addArtist(catalog, 'Charly García');

    const replies = await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        catalog.call('POST', `/artists/${artistId}/albums`, { json: { name: `Toma ${index}`, year: 1980 + (index % 40) } }),
      ),
    );

    expect(replies.map((reply) => reply.status)).toEqual(Array.from({ length: 100 }, () => 201));
    const ids = replies.map((reply) => reply.body.id as number);
    expect(new Set(ids).size).toBe(100);
    const stored = await catalog.call('GET', `/artists/${artistId}/albums`);
    expect(stored.body).toHaveLength(100);
    expect(new Set(stored.body.map((album: { id: number }) => album.id))).toEqual(new Set(ids));
    expect(new Set(stored.body.map((album: { name: string }) => album.name))).toEqual(
      new Set(Array.from({ length: 100 }, (_, index) => `Toma ${index}`)),
    );
  });
});
