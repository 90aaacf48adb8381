// The catalog's zod schemas: one source for request validation, response shapes and the OpenAPI document.
import { z } from 'zod';

/** Names of the schemas that the OpenAPI document shows as shared components. */
export const componentNames = z.registry<{ readonly name: string }>();

export const LIMITS = {
  nameLength: 200,
  descriptionLength: 4000,
  urlLength: 2048,
  searchLength: 200,
  pageSize: 100,
  defaultPageSize: 10,
  firstAlbumYear: 1900,
} as const;

/** Ids are SQLite INTEGERs sent as JSON numbers; the store refuses any id beyond 2^53 − 1 so none loses precision. */
export const idSchema = z
  .int()
  .positive()
  .max(Number.MAX_SAFE_INTEGER)
  .meta({ format: 'int64', description: 'Server-assigned id (a JSON number below 2^53)' });

/** Ids in URL paths: plain decimal digits, nothing Number() would also accept (hex, exponents, spaces). */
const pathIdSchema = z
  .string()
  .regex(/^[1-9][0-9]{0,15}$/, 'must be a positive integer id')
  .transform(Number)
  .pipe(z.number().max(Number.MAX_SAFE_INTEGER, 'must be below 2^53'))
  .meta({ description: 'A server-assigned id, in decimal digits' });

/**
 * An integer in the query string: plain decimal digits, as for path ids, so nothing Number() would also accept
 * (an empty value, hex, exponents, fractions, spaces, a sign) passes for a number; a repeated parameter is refused.
 */
function queryIntegerSchema(min: number, max: number, messages: { readonly min: string; readonly max: string }) {
  return (
    z
      .string({ error: 'must be given once' })
      .regex(/^(0|[1-9][0-9]{0,15})$/, 'must be an integer in decimal digits')
      // The digits already make an integer; zod's .int() would add its own message for values past 2^53 − 1.
      .pipe(z.coerce.number<string>().min(min, messages.min).max(max, messages.max).meta({ type: 'integer' }))
  );
}

/**
 * JSON may carry a lone UTF-16 surrogate (a "\ud800" escape) that no UTF-8 text can hold: SQLite would store
 * replacement characters, so what a client read back would differ from what it sent and was answered.
 */
const LONE_SURROGATE = /\p{Cs}/u;
const WELL_FORMED = { error: 'must be valid Unicode text (it holds a lone UTF-16 surrogate)' } as const;
function wellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

const nameSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .trim()
  .min(1, 'must not be empty')
  .max(LIMITS.nameLength, `must be at most ${LIMITS.nameLength} characters`)
  .refine(wellFormed, WELL_FORMED);

const imageSchema = z
  .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' })
  .max(LIMITS.urlLength, `must be at most ${LIMITS.urlLength} characters`)
  .nullable()
  .default(null)
  .meta({ description: 'An http(s) URL of a picture; null or omitted for none' });

const storedImageSchema = z.string().nullable().meta({ format: 'uri' });

export const artistInputSchema = z
  .strictObject({
    name: nameSchema,
    description: z
      .string({ error: 'must be a string or null' })
      .max(LIMITS.descriptionLength, `must be at most ${LIMITS.descriptionLength} characters`)
      .refine(wellFormed, WELL_FORMED)
      .nullable()
      .default(null),
    image: imageSchema,
    band: z
      .string({ error: 'must be a string or null' })
      .trim()
      .min(1, 'must not be empty; send null for no band')
      .max(LIMITS.nameLength, `must be at most ${LIMITS.nameLength} characters`)
      .refine(wellFormed, WELL_FORMED)
      .nullable()
      .default(null)
      .meta({ description: 'The band the artist is known for, e.g. "Sui Generis"; null for none' }),
  })
  .meta({ description: 'An artist as clients send it (PUT replaces every field; omitted optional fields take their defaults)' })
  .register(componentNames, { name: 'ArtistInput' });

/** Album years run from 1900 to the year after "now" (announced releases), with "now" from the injected clock. */
export function albumInputSchema(maxYear: number) {
  return z
    .strictObject({
      name: nameSchema,
      year: z
        .int({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be an integer year') })
        .min(LIMITS.firstAlbumYear, `must be between ${LIMITS.firstAlbumYear} and ${maxYear}`)
        .max(maxYear, `must be between ${LIMITS.firstAlbumYear} and ${maxYear}`),
      image: imageSchema,
    })
    .meta({ description: 'An album as clients send it' })
    .register(componentNames, { name: 'AlbumInput' });
}

export const albumSchema = z
  .object({ id: idSchema, artistId: idSchema, name: z.string(), year: z.int(), image: storedImageSchema })
  .register(componentNames, { name: 'Album' });

export const albumListSchema = z.array(albumSchema).meta({ description: 'Oldest first' }).register(componentNames, { name: 'AlbumList' });

export const artistSchema = z
  .object({ id: idSchema, name: z.string(), description: z.string().nullable(), image: storedImageSchema, band: z.string().nullable() })
  .register(componentNames, { name: 'Artist' });

export const artistWithAlbumsSchema = artistSchema
  .extend({ albums: albumListSchema })
  .register(componentNames, { name: 'ArtistWithAlbums' });

// The page shape of the public "Argentine Rock Legends" spec this API follows: data plus meta with a next link.
export const artistPageSchema = z
  .object({
    data: z.array(artistSchema),
    meta: z.object({
      limit: z.int(),
      offset: z.int(),
      total: z.int().min(0).meta({ description: 'Artists matching the search, across all pages' }),
      next: z.string().nullable().meta({ description: 'Path of the next page, null on the last page' }),
    }),
  })
  .register(componentNames, { name: 'ArtistPage' });

export const errorSchema = z
  .object({
    error: z.string().meta({ description: 'Stable machine-readable code, e.g. invalid_request, unauthorized, artist_not_found' }),
    message: z.string(),
    details: z.array(
      z.object({
        in: z.enum(['path', 'query', 'body']),
        path: z.string().meta({ description: 'The offending field, e.g. "year" ("" for the whole body)' }),
        message: z.string(),
      }),
    ),
  })
  .register(componentNames, { name: 'Error' });

export const artistParamsSchema = z.strictObject({ artistId: pathIdSchema });
export const albumParamsSchema = z.strictObject({ artistId: pathIdSchema, albumId: pathIdSchema });

const pageSizeRange = `must be between 1 and ${LIMITS.pageSize}`;

export const artistListQuerySchema = z.strictObject({
  q: z
    .string({ error: 'must be given once' })
    .trim()
    .max(LIMITS.searchLength, `must be at most ${LIMITS.searchLength} characters`)
    .optional()
    .meta({ description: 'Part of the name to look for (case- and accent-insensitive)' }),
  limit: queryIntegerSchema(1, LIMITS.pageSize, { min: pageSizeRange, max: pageSizeRange }).default(LIMITS.defaultPageSize),
  offset: queryIntegerSchema(0, Number.MAX_SAFE_INTEGER, { min: 'must not be negative', max: 'must be below 2^53' }).default(0),
});

export type ArtistInput = z.output<typeof artistInputSchema>;
export type AlbumInput = z.output<ReturnType<typeof albumInputSchema>>;
export type Artist = z.output<typeof artistSchema>;
export type Album = z.output<typeof albumSchema>;
export type ArtistWithAlbums = z.output<typeof artistWithAlbumsSchema>;
export type ArtistPage = z.output<typeof artistPageSchema>;
export type ErrorBody = z.output<typeof errorSchema>;
export type ErrorDetail = ErrorBody['details'][number];
export type ArtistListQuery = z.output<typeof artistListQuerySchema>;
