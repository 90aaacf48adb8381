// The catalog's operations (artists and their albums): the table the router serves and OpenAPI documents.
import { ApiError, artistNotFound, ERROR_CODES } from './errors.js';
import { defineOperation, type Operation, type ResponseDoc } from './operation.js';
import {
  albumInputSchema,
  albumListSchema,
  albumParamsSchema,
  albumSchema,
  artistInputSchema,
  artistListQuerySchema,
  artistPageSchema,
  artistParamsSchema,
  artistSchema,
  artistWithAlbumsSchema,
  errorSchema,
} from './schemas.js';

export const API_PREFIX = '/api/v1';

const invalid: ResponseDoc = { description: 'Invalid path, query or body; `details` names each bad field', schema: errorSchema };
const noArtist: ResponseDoc = { description: 'No artist with this id', schema: errorSchema };
const notJson: Readonly<Record<number, ResponseDoc>> = {
  413: { description: 'Body larger than the server limit', schema: errorSchema },
  415: { description: 'Body is not application/json', schema: errorSchema },
};

export interface OperationOptions {
  /** The latest album year accepted (the year after "now" on the server's clock). */
  readonly maxAlbumYear: number;
}

export function catalogOperations(options: OperationOptions): readonly Operation[] {
  const albumInput = albumInputSchema(options.maxAlbumYear);
  return [
    defineOperation({
      operationId: 'listArtists',
      method: 'GET',
      path: '/artists',
      summary: 'List artists, ordered by name, optionally searching by part of the name',
      query: artistListQuerySchema,
      responses: { 200: { description: 'One page of artists and the total count', schema: artistPageSchema }, 400: invalid },
      handle: ({ query }, store) => {
        const { artists, total } = store.artistPage({ text: query.q, limit: query.limit, offset: query.offset });
        const nextOffset = query.offset + query.limit;
        const search = query.q === undefined || query.q === '' ? '' : `&q=${encodeURIComponent(query.q)}`;
        const next = nextOffset < total ? `${API_PREFIX}/artists?limit=${query.limit}&offset=${nextOffset}${search}` : null;
        return { status: 200, body: { data: artists, meta: { limit: query.limit, offset: query.offset, total, next } } };
      },
    }),
    defineOperation({
      operationId: 'createArtist',
      method: 'POST',
      path: '/artists',
      summary: 'Add an artist',
      body: artistInputSchema,
      responses: { 201: { description: 'Stored; Location points at the new artist', schema: artistSchema }, 400: invalid, ...notJson },
      handle: ({ body }, store) => {
        const artist = store.createArtist(body);
        return { status: 201, body: artist, location: `${API_PREFIX}/artists/${artist.id}` };
      },
    }),
    defineOperation({
      operationId: 'getArtist',
      method: 'GET',
      path: '/artists/{artistId}',
      summary: 'One artist with all of its albums',
      params: artistParamsSchema,
      responses: {
        200: { description: 'The artist and its albums, oldest first', schema: artistWithAlbumsSchema },
        400: invalid,
        404: noArtist,
      },
      handle: ({ params }, store) => ({
        status: 200,
        body: store.artistWithAlbums(params.artistId) ?? raise(artistNotFound(params.artistId)),
      }),
    }),
    defineOperation({
      operationId: 'replaceArtist',
      method: 'PUT',
      path: '/artists/{artistId}',
      summary: 'Replace every field of an existing artist (albums are kept)',
      params: artistParamsSchema,
      body: artistInputSchema,
      responses: { 200: { description: 'The updated artist', schema: artistSchema }, 400: invalid, 404: noArtist, ...notJson },
      handle: ({ params, body }, store) => ({
        status: 200,
        body: store.replaceArtist(params.artistId, body) ?? raise(artistNotFound(params.artistId)),
      }),
    }),
    defineOperation({
      operationId: 'listAlbums',
      method: 'GET',
      path: '/artists/{artistId}/albums',
      summary: "An artist's albums, oldest first",
      params: artistParamsSchema,
      responses: { 200: { description: 'The albums', schema: albumListSchema }, 400: invalid, 404: noArtist },
      handle: ({ params }, store) => ({ status: 200, body: store.albumsOf(params.artistId) ?? raise(artistNotFound(params.artistId)) }),
    }),
    defineOperation({
      operationId: 'createAlbum',
      method: 'POST',
      path: '/artists/{artistId}/albums',
      summary: 'Add an album to an artist',
      params: artistParamsSchema,
      body: albumInput,
      responses: {
        201: { description: 'Stored; Location points at the new album', schema: albumSchema },
        400: invalid,
        404: noArtist,
        ...notJson,
      },
      handle: ({ params, body }, store) => {
        const album = store.addAlbum(params.artistId, body) ?? raise(artistNotFound(params.artistId));
        return { status: 201, body: album, location: `${API_PREFIX}/artists/${album.artistId}/albums/${album.id}` };
      },
    }),
    defineOperation({
      operationId: 'getAlbum',
      method: 'GET',
      path: '/artists/{artistId}/albums/{albumId}',
      summary: 'One album of an artist',
      params: albumParamsSchema,
      responses: {
        200: { description: 'The album', schema: albumSchema },
        400: invalid,
        404: { description: 'No such artist or album', schema: errorSchema },
      },
      handle: ({ params }, store) => {
        const album = store.album(params.artistId, params.albumId);
        if (album !== undefined) return { status: 200, body: album };
        if (store.artist(params.artistId) === undefined) throw artistNotFound(params.artistId);
        throw new ApiError(404, ERROR_CODES.albumNotFound, `artist ${params.artistId} has no album with id ${params.albumId}`);
      },
    }),
  ];
}

function raise(error: ApiError): never {
  throw error;
}
