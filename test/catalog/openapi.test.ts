import { afterEach, describe, expect, it } from 'vitest';
import { CatalogHarness } from './harness.js';

const harness = new CatalogHarness();
afterEach(() => harness.cleanup());

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are read freely in assertions
type Json = Record<string, any>;

function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => (key === '$ref' && typeof inner === 'string' ? [inner] : refsIn(inner)));
}

describe('catalog OpenAPI document', () => {
  it('describes every operation the server answers, with both security schemes', async () => {
    const catalog = await harness.start();

    const doc: Json = (await catalog.call('GET', '/openapi.json', { auth: 'none' })).body;

    expect(doc['openapi']).toMatch(/^3\.\d+\.\d+$/);
    expect(doc['servers']).toEqual([{ url: '/api/v1' }]);
    const operations = Object.entries(doc['paths'] as Json).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(
      [
        'GET /artists',
        'POST /artists',
        'GET /artists/{artistId}',
        'PUT /artists/{artistId}',
        'GET /artists/{artistId}/albums',
        'POST /artists/{artistId}/albums',
        'GET /artists/{artistId}/albums/{albumId}',
        'GET /openapi.json',
      ].sort(),
    );
    expect(doc['components'].securitySchemes).toEqual({
      bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      apiKeyAuth: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }),
    });
    expect(doc['paths']['/artists']['post'].responses['401']).toBeDefined();
    expect(doc['paths']['/openapi.json']['get'].security).toEqual([]);
  });

  it('resolves every schema reference to a component', async () => {
    const catalog = await harness.start();

    const doc: Json = (await catalog.call('GET', '/openapi.json', { auth: 'none' })).body;

    const refs = refsIn(doc);
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of refs) expect(Object.keys(doc['components'].schemas)).toContain(ref.replace('#/components/schemas/', ''));
  });

  it('documents the same rules the server enforces on request bodies', async () => {
    const catalog = await harness.start();

    const doc: Json = (await catalog.call('GET', '/openapi.json', { auth: 'none' })).body;
    const schemas = doc['components'].schemas;

    expect(doc['paths']['/artists']['post'].requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ArtistInput',
    });
    expect(schemas.ArtistInput.required).toEqual(['name']);
    expect(schemas.ArtistInput.additionalProperties).toBe(false);
    expect(schemas.ArtistInput.properties.name).toMatchObject({ type: 'string', minLength: 1, maxLength: 200 });
    expect(schemas.AlbumInput.required).toEqual(['name', 'year']);
    expect(schemas.AlbumInput.properties.year).toEqual({ type: 'integer', minimum: 1900, maximum: 2025 });
    expect(schemas.Artist.properties.id).toMatchObject({ type: 'integer', format: 'int64', maximum: Number.MAX_SAFE_INTEGER });
    expect(schemas.Error.required).toEqual(['error', 'message', 'details']);
    const year = await catalog.call('POST', '/artists/1/albums', {
      json: { name: 'x', year: schemas.AlbumInput.properties.year.maximum + 1 },
    });
    expect(year.body.details).toContainEqual({ in: 'body', path: 'year', message: 'must be between 1900 and 2025' });
  });

  it("documents the failures outside an operation's own table (a wrong method, shutting down) as a default Error", async () => {
    const catalog = await harness.start();

    const doc: Json = (await catalog.call('GET', '/openapi.json', { auth: 'none' })).body;
    const wrongMethod = await catalog.call('DELETE', '/artists/1');

    for (const item of Object.values(doc['paths'] as Json)) {
      for (const operation of Object.values(item as Json)) {
        expect(operation.responses.default.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
        expect(operation.responses.default.description).toContain('405');
      }
    }
    expect(wrongMethod.status).toBe(405);
    expect(Object.keys(wrongMethod.body)).toEqual(doc['components'].schemas.Error.required);
  });

  it('documents query and path parameters', async () => {
    const catalog = await harness.start();

    const doc: Json = (await catalog.call('GET', '/openapi.json', { auth: 'none' })).body;

    const list = doc['paths']['/artists']['get'].parameters;
    expect(list.map((parameter: Json) => [parameter['name'], parameter['in'], parameter['required']])).toEqual([
      ['q', 'query', false],
      ['limit', 'query', false],
      ['offset', 'query', false],
    ]);
    expect(list[1].schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 10 });
    const album = doc['paths']['/artists/{artistId}/albums/{albumId}']['get'].parameters;
    expect(album.map((parameter: Json) => [parameter['name'], parameter['in'], parameter['required']])).toEqual([
      ['artistId', 'path', true],
      ['albumId', 'path', true],
    ]);
  });
});
