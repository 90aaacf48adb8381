import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageSpec, projectFiles } from '../../../src/cli/project/scaffold.js';

describe("a new project's dependency on this package", () => {
  it('is the version range when this installation is an installed package', () => {
    expect(packageSpec('/home/me/bot/node_modules/longport-trader/', '0.3.1')).toBe('^0.3.1');
    expect(packageSpec('C:\\Users\\me\\AppData\\Roaming\\npm\\node_modules\\longport-trader\\', '0.3.1')).toBe('^0.3.1');
  });

  it('is the folder itself when this installation is a checkout of the repo (a registry may not have its version)', () => {
    expect(packageSpec('/home/me/src/longport-trader/', '0.3.1')).toBe('file:/home/me/src/longport-trader');
  });
});

describe("a new project's README", () => {
  it('shows a data fetch command with every flag the command requires (--from and --to)', async () => {
    const files = await projectFiles(join(tmpdir(), 'my-bot'), 'sma');
    const readme = String(files.find((file) => file.path === 'README.md')?.content);
    const fetches = [...readme.matchAll(/`npx trader data fetch ([^`]*)`/g)].map((match) => match[1]!.split(/\s+/));
    expect(fetches).not.toHaveLength(0);
    for (const words of fetches) expect(words).toEqual(expect.arrayContaining(['--from', '--to']));
  });
});
