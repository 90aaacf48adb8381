// The catalog's server makes Fastify's JSON-schema compilers only when a schema asks (src/catalog/server.ts):
// made that way they are Fastify's own, validating and serializing as they would have.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { compilersOnFirstUse } from '../../src/catalog/server.js';

describe("the catalog's schema compilers made on first use", () => {
  it('validate a body and serialize a reply by their schemas as Fastify would', async () => {
    const app = Fastify({ schemaController: { compilersFactory: compilersOnFirstUse as never } });
    app.post('/echo', {
      schema: {
        body: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
        response: { 200: { type: 'object', properties: { name: { type: 'string' } } } },
      },
      handler: async (request) => ({ ...(request.body as object), secret: 'not in the schema' }),
    });
    try {
      const bad = await app.inject({ method: 'POST', url: '/echo', payload: { other: 1 } });
      const good = await app.inject({ method: 'POST', url: '/echo', payload: { name: 'Serú Girán' } });

      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ code: 'FST_ERR_VALIDATION', message: "body must have required property 'name'" });
      expect(good.json()).toEqual({ name: 'Serú Girán' });
    } finally {
      await app.close();
    }
  });
});
