// The catalog's storage: artists and their albums in one SQLite file (better-sqlite3, synchronous queries).
import type Database from 'better-sqlite3';
import { openDatabase } from './database.js';
import type { Album, AlbumInput, Artist, ArtistInput, ArtistWithAlbums } from './schemas.js';
import { searchKey } from './search-key.js';

interface ArtistRow {
  readonly id: number;
  readonly name: string;
  readonly description: string | null;
  readonly image: string | null;
  readonly band: string | null;
}

interface AlbumRow {
  readonly id: number;
  readonly artist_id: number;
  readonly name: string;
  readonly year: number;
  readonly image: string | null;
}

export interface ArtistSearch {
  /** Part of the name, matched case- and accent-insensitively; undefined lists everyone. */
  readonly text?: string | undefined;
  readonly limit: number;
  readonly offset: number;
}

export class CatalogStore {
  private readonly statements;

  constructor(private readonly database: Database.Database) {
    const artistColumns = 'id, name, description, image, band';
    const albumColumns = 'id, artist_id, name, year, image';
    this.statements = {
      insertArtist: database.prepare<[string, string, string | null, string | null, string | null]>(
        'INSERT INTO artists (name, search_key, description, image, band) VALUES (?, ?, ?, ?, ?)',
      ),
      updateArtist: database.prepare<[string, string, string | null, string | null, string | null, number]>(
        'UPDATE artists SET name = ?, search_key = ?, description = ?, image = ?, band = ? WHERE id = ?',
      ),
      artist: database.prepare<[number], ArtistRow>(`SELECT ${artistColumns} FROM artists WHERE id = ?`),
      artistPage: database.prepare<[{ text: string | null; limit: number; offset: number }], ArtistRow>(
        `SELECT ${artistColumns} FROM artists WHERE @text IS NULL OR instr(search_key, @text) > 0 ORDER BY search_key, id LIMIT @limit OFFSET @offset`,
      ),
      artistCount: database.prepare<[{ text: string | null }], { readonly total: number }>(
        'SELECT count(*) AS total FROM artists WHERE @text IS NULL OR instr(search_key, @text) > 0',
      ),
      insertAlbum: database.prepare<[number, string, number, string | null]>(
        'INSERT INTO albums (artist_id, name, year, image) VALUES (?, ?, ?, ?)',
      ),
      album: database.prepare<[number, number], AlbumRow>(`SELECT ${albumColumns} FROM albums WHERE artist_id = ? AND id = ?`),
      albumsOf: database.prepare<[number], AlbumRow>(`SELECT ${albumColumns} FROM albums WHERE artist_id = ? ORDER BY year, id`),
    };
  }

  static open(path: string, busyTimeoutMs?: number): CatalogStore {
    return new CatalogStore(openDatabase(path, busyTimeoutMs));
  }

  createArtist(input: ArtistInput): Artist {
    const result = this.statements.insertArtist.run(input.name, searchKey(input.name), input.description, input.image, input.band);
    return { id: safeId(result.lastInsertRowid), ...input };
  }

  /** Replaces every field of an existing artist; undefined when there is no such artist. */
  replaceArtist(id: number, input: ArtistInput): Artist | undefined {
    const result = this.statements.updateArtist.run(input.name, searchKey(input.name), input.description, input.image, input.band, id);
    return result.changes === 0 ? undefined : { id, ...input };
  }

  artist(id: number): Artist | undefined {
    const row = this.statements.artist.get(id);
    return row === undefined ? undefined : artistFromRow(row);
  }

  artistWithAlbums(id: number): ArtistWithAlbums | undefined {
    return this.database.transaction(() => {
      const artist = this.artist(id);
      return artist === undefined ? undefined : { ...artist, albums: this.statements.albumsOf.all(id).map(albumFromRow) };
    })();
  }

  /** One page of artists ordered by folded name, with the total count of matches, read in one snapshot. */
  artistPage(search: ArtistSearch): { readonly artists: Artist[]; readonly total: number } {
    const text = search.text === undefined || search.text === '' ? null : searchKey(search.text);
    return this.database.transaction(() => ({
      artists: this.statements.artistPage.all({ text, limit: search.limit, offset: search.offset }).map(artistFromRow),
      total: this.statements.artistCount.get({ text })?.total ?? 0,
    }))();
  }

  /** Adds an album to an existing artist; undefined when there is no such artist. */
  addAlbum(artistId: number, input: AlbumInput): Album | undefined {
    return this.database.transaction(() => {
      if (this.statements.artist.get(artistId) === undefined) return undefined;
      const result = this.statements.insertAlbum.run(artistId, input.name, input.year, input.image);
      return { id: safeId(result.lastInsertRowid), artistId, ...input };
    })();
  }

  album(artistId: number, albumId: number): Album | undefined {
    const row = this.statements.album.get(artistId, albumId);
    return row === undefined ? undefined : albumFromRow(row);
  }

  /** Albums of an existing artist, oldest first; undefined when there is no such artist. */
  albumsOf(artistId: number): Album[] | undefined {
    return this.artistWithAlbums(artistId)?.albums;
  }

  close(): void {
    this.database.close();
  }
}

/** JSON carries ids as numbers, so an id past 2^53 − 1 would silently change; refuse it instead. */
function safeId(rowid: number | bigint): number {
  const id = Number(rowid);
  if (!Number.isSafeInteger(id)) throw new Error(`row id ${rowid} is beyond 2^53 - 1 and cannot be sent as a JSON number`);
  return id;
}

function artistFromRow(row: ArtistRow): Artist {
  return { id: row.id, name: row.name, description: row.description, image: row.image, band: row.band };
}

function albumFromRow(row: AlbumRow): Album {
  return { id: row.id, artistId: row.artist_id, name: row.name, year: row.year, image: row.image };
}
