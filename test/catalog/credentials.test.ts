import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CredentialsError, loadCredentials } from '../../src/catalog/credentials.js';
import { CatalogHarness } from './harness.js';

const harness = new CatalogHarness();
afterEach(() => harness.cleanup());

function authFile(content: string): string {
  const path = join(harness.tempDirectory(), 'auth.json');
  writeFileSync(path, content);
  return path;
}

describe('catalog credentials', () => {
  it('reads comma-separated tokens and keys from the environment, ignoring blanks', async () => {
    const credentials = await loadCredentials({ env: { CATALOG_TOKENS: ' alpha , beta,,', CATALOG_API_KEYS: 'key-1' } });

    expect(credentials).toEqual({ tokens: ['alpha', 'beta'], apiKeys: ['key-1'] });
  });

  it('adds the --auth file to the environment', async () => {
    const path = authFile(JSON.stringify({ tokens: ['from-file'], apiKeys: ['file-key'] }));

    const credentials = await loadCredentials({ env: { CATALOG_TOKENS: 'from-env' }, authFile: path });

    expect(credentials).toEqual({ tokens: ['from-env', 'from-file'], apiKeys: ['file-key'] });
  });

  it('refuses to start with no credentials anywhere, naming every way to give them', async () => {
    const empty = authFile('{"tokens": []}');

    await expect(loadCredentials({ env: { CATALOG_TOKENS: ' , ' } })).rejects.toThrow(/CATALOG_TOKENS.*CATALOG_API_KEYS.*--auth FILE/);
    await expect(loadCredentials({ env: {}, authFile: empty })).rejects.toThrow(`(${empty} lists none)`);
  });

  it('names the file and each bad field, without echoing secrets', async () => {
    const path = authFile(JSON.stringify({ tokens: ['good-one', 'has space-s3cret', ''], apiKey: ['typo'] }));

    const error = await loadCredentials({ env: {}, authFile: path }).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(CredentialsError);
    const message = (error as Error).message;
    expect(message.startsWith(`${path}: `)).toBe(true);
    expect(message).toContain('tokens[1]: must be printable ASCII without spaces');
    expect(message).toContain('tokens[2]: must not be empty');
    expect(message).toContain('apiKey: unknown field (expected tokens, apiKeys)');
    expect(message).not.toContain('s3cret');
  });

  it('says when the file is missing or not JSON', async () => {
    const missing = join(harness.tempDirectory(), 'nope.json');
    const broken = authFile('{"tokens": [');

    await expect(loadCredentials({ env: {}, authFile: missing })).rejects.toThrow(`${missing}: cannot read the credentials file (ENOENT)`);
    await expect(loadCredentials({ env: {}, authFile: broken })).rejects.toThrow(`${broken}: not valid JSON`);
  });

  it('rejects an environment entry that cannot travel in a header', async () => {
    await expect(loadCredentials({ env: { CATALOG_API_KEYS: 'ok,bad\tkey' } })).rejects.toThrow(
      'CATALOG_API_KEYS: entry 2 must be printable ASCII without spaces',
    );
  });
});
