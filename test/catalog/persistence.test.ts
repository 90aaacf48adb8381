import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { CatalogHarness } from './harness.js';

const harness = new CatalogHarness();
afterEach(() => harness.cleanup());

describe('catalog persistence', () => {
  it('keeps artists and albums across a restart over the same file, continuing ids after the stored ones', async () => {
    const first = await harness.start();
    const artist = await first.call('POST', '/artists', {
      json: { name: 'Almendra', description: 'Spinetta, Molinari, del Guercio, Frascino', band: null },
    });
    const album = await first.call('POST', `/artists/${artist.body.id}/albums`, {
      json: { name: 'Almendra', year: 1969, image: 'https://example.com/a.jpg' },
    });
    const before = await first.call('GET', `/artists/${artist.body.id}`);
    await first.stop();

    const second = await first.restart();
    const after = await second.call('GET', `/artists/${artist.body.id}`);
    const next = await second.call('POST', '/artists', { json: { name: 'Invisible' } });

    expect(after.status).toBe(200);
    expect(after.body).toEqual(before.body);
    expect(after.body.albums).toEqual([album.body]);
    expect(next.body.id).toBeGreaterThan(artist.body.id);
  });

  it('answers 503 database_busy with Retry-After while another process holds the write lock past the busy timeout', async () => {
    const catalog = await harness.start({ busyTimeoutMs: 20 });
    const other = new Database(catalog.databasePath);
    other.exec('BEGIN IMMEDIATE');
    try {
      const busy = await catalog.call('POST', '/artists', { json: { name: 'Sui Generis' } });
      expect(busy.status).toBe(503);
      expect(busy.headers['retry-after']).toBe('1');
      expect(busy.body).toEqual({ error: 'database_busy', message: 'the database is busy with another writer; try again', details: [] });
      // Reads go on (WAL): only the writer waits.
      expect((await catalog.call('GET', '/artists')).status).toBe(200);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect((await catalog.call('POST', '/artists', { json: { name: 'Sui Generis' } })).status).toBe(201);
  });

  it('stores the file in WAL mode with foreign keys enforced between albums and artists', async () => {
    const catalog = await harness.start();
    await catalog.call('POST', '/artists', { json: { name: 'Vox Dei' } });
    await catalog.stop();

    const database = new Database(catalog.databasePath);
    try {
      expect(database.pragma('journal_mode', { simple: true })).toBe('wal');
      const foreignKeys = database.prepare('SELECT "table" FROM pragma_foreign_key_list(\'albums\')').all();
      expect(foreignKeys).toEqual([{ table: 'artists' }]);
    } finally {
      database.close();
    }
  });

  it('refuses a database written by a newer schema version, naming the file', async () => {
    const path = join(harness.tempDirectory(), 'future.sqlite');
    const database = new Database(path);
    database.pragma('user_version = 99');
    database.close();

    await expect(harness.start({}, path)).rejects.toThrow(
      `${path}: catalog database has schema version 99, this server knows only up to 1`,
    );
  });
});
