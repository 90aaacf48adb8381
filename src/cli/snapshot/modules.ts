// A strategy loaded by a process started from the snapshot must share the snapshot's copies of this package's
// modules (the runtime checks `instanceof` of domain values), not import dist/'s files a second time. Its
// imports of dist/ modules lead to small bridge modules, written next to the snapshot on first use, that
// re-export the snapshot's copy of each; it is imported through a real module loader (import-module.mjs).
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RuntimeModules } from '../../strategy/installation.js';

/** The snapshot's modules by their path under dist/, each initialised on first use. */
export type ModuleRegistry = Readonly<Record<string, () => Promise<Record<string, unknown>>>>;

/** Where bridges find the registry of the running process. */
const REGISTRY_KEY = Symbol.for('longport-trader.snapshot-modules');

export interface SnapshotModulesOptions {
  /** The dist/ folder of the installation, with a trailing separator. */
  readonly dist: string;
  /** Folder of the bridges (beside the snapshot they belong to). */
  readonly bridges: string;
  /** Identifies the snapshot (its stamp): compiled strategies are cached per snapshot. */
  readonly id: string;
  readonly registry: ModuleRegistry;
  readonly importModule: (url: string) => Promise<Record<string, unknown>>;
}

export function snapshotModules(options: SnapshotModulesOptions): RuntimeModules {
  (globalThis as Record<symbol, unknown>)[REGISTRY_KEY] = (path: string) => options.registry[path]!();
  const bridgeUrls = new RegExp(`${escapeRegExp(pathToFileURL(join(options.bridges, sep)).href)}([^'"\\s]+)\\.mjs`, 'g');
  const distUrl = pathToFileURL(options.dist).href;
  return {
    id: `snapshot ${options.id}`,
    importModule: options.importModule,
    inMessage: (text) => text.replace(bridgeUrls, (_bridge, path: string) => `${distUrl}${path}.js`),
    async urlOf(file) {
      if (!file.startsWith(options.dist)) return undefined;
      const path = relative(options.dist, file).split(sep).join('/');
      const load = options.registry[path];
      if (load === undefined) return undefined;
      const bridge = join(options.bridges, path.replace(/\.js$/, '.mjs'));
      const text = bridgeText(path, Object.keys(await load()));
      if ((await readFile(bridge, 'utf8').catch(() => undefined)) !== text) await writeAtomically(bridge, text);
      return pathToFileURL(bridge).href;
    },
  };
}

/** An ES module re-exporting every export of the registry's module (names as strings: `catch` is one of zod's). */
export function bridgeText(path: string, names: readonly string[]): string {
  const named = names.filter((name) => name !== 'default');
  return [
    `// The start-up snapshot's copy of dist/${path} (written by longport-trader: src/cli/snapshot/modules.ts).`,
    `const module = await globalThis[Symbol.for(${JSON.stringify(REGISTRY_KEY.description)})](${JSON.stringify(path)});`,
    ...named.map((name, index) => `const e${index} = module[${JSON.stringify(name)}];`),
    `export { ${named.map((name, index) => `e${index} as ${JSON.stringify(name)}`).join(', ')} };`,
    ...(names.includes('default') ? ['export default module.default;'] : []),
    '',
  ].join('\n');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

async function writeAtomically(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, file);
}
