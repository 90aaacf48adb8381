import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { bridgeText, snapshotModules } from '../../../src/cli/snapshot/modules.js';

const REGISTRY = Symbol.for('longport-trader.snapshot-modules');
const folders: string[] = [];
afterEach(async () => {
  delete (globalThis as Record<symbol, unknown>)[REGISTRY];
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

describe("bridges to the snapshot's modules", () => {
  it('re-export every name of the module, reserved words and the default export included', async () => {
    const module = { catch: () => 'caught', 'weird-name': 1, z: { object: 2 }, default: 'the default' };
    (globalThis as Record<symbol, unknown>)[REGISTRY] = async () => module;
    const folder = await mkdtemp(join(tmpdir(), 'snapshot-bridge-'));
    folders.push(folder);
    const file = join(folder, 'bridge.mjs');
    await writeFile(file, bridgeText('vendor/zod.js', Object.keys(module)));

    const bridged = (await import(pathToFileURL(file).href)) as Record<string, unknown>;

    expect({ ...bridged }).toEqual(module);
  });

  it('lead the dist/ modules the snapshot holds to a bridge written on first use, and leave every other file alone', async () => {
    const bridges = await mkdtemp(join(tmpdir(), 'snapshot-bridges-'));
    folders.push(bridges);
    const modules = snapshotModules({
      dist: '/install/dist/',
      bridges,
      id: 'stamp',
      registry: { 'index.js': async () => ({ defineStrategy: () => undefined }) },
      importModule: async () => ({}),
    });

    const url = await modules.urlOf('/install/dist/index.js');

    expect(url).toBe(pathToFileURL(join(bridges, 'index.mjs')).href);
    expect(await readFile(join(bridges, 'index.mjs'), 'utf8')).toBe(bridgeText('index.js', ['defineStrategy']));
    expect(await modules.urlOf('/install/dist/not-in-the-snapshot.js')).toBeUndefined();
    expect(await modules.urlOf('/elsewhere/node_modules/lodash/index.js')).toBeUndefined();
    expect(modules.id).toBe('snapshot stamp');
    expect(modules.inMessage(`The requested module '${url}' does not provide an export named 'nope'`)).toBe(
      "The requested module 'file:///install/dist/index.js' does not provide an export named 'nope'",
    );
  });
});
