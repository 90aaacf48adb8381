import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { identity, packagesUnchanged } from '../../../src/cli/snapshot/packages.js';

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

async function packageJson(text: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'snapshot-packages-'));
  folders.push(folder);
  const file = join(folder, 'package.json');
  await writeFile(file, text);
  return file;
}

describe('the packages a snapshot was built with', () => {
  it('are unchanged while their package.json files are the same files', async () => {
    const file = await packageJson('{"version":"1.0.0"}');
    const known = [{ file, ...identity(await stat(file)) }];

    expect(packagesUnchanged(known)).toBe(true);
  });

  it('are stale once a package.json is rewritten (an update) or gone', async () => {
    const file = await packageJson('{"version":"1.0.0"}');
    const known = [{ file, ...identity(await stat(file)) }];

    await writeFile(file, '{"version":"1.0.1"}');
    expect(packagesUnchanged(known)).toBe(false);
    await rm(file);
    expect(packagesUnchanged(known)).toBe(false);
  });
});
