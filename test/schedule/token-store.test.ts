import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tokenDigest, TokenStore } from '../../src/schedule/token-store.js';

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'token-store-'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

describe('TokenStore', () => {
  it('keeps a refreshed token readable by its owner only, and hands it out while the environment still has the token it replaced', () => {
    const file = path.join(directory, 'access-token.json');
    const store = new TokenStore(file);

    store.save({ appKey: 'key-1', token: 'fresh-token', expiresAt: 1_800_000_000_000, replaces: tokenDigest('old-token') });

    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(store.replacementFor('key-1', 'old-token')).toMatchObject({ token: 'fresh-token', expiresAt: 1_800_000_000_000 });
    // The user put another token (or another account) in the environment since: theirs wins.
    expect(store.replacementFor('key-1', 'newer-token-from-user')).toBeUndefined();
    expect(store.replacementFor('key-2', 'old-token')).toBeUndefined();
  });

  it('never stores the replaced token itself', () => {
    const file = path.join(directory, 'access-token.json');
    new TokenStore(file).save({ appKey: 'key-1', token: 'fresh-token', expiresAt: 1, replaces: tokenDigest('old-token') });

    expect(JSON.stringify(new TokenStore(file).load())).not.toContain('old-token');
  });

  it('treats a missing or unreadable file as no token', () => {
    const file = path.join(directory, 'access-token.json');
    expect(new TokenStore(file).load()).toBeUndefined();
    writeFileSync(file, '{not json');
    expect(new TokenStore(file).load()).toBeUndefined();
  });
});
