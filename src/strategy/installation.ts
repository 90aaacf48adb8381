// The running installation of longport-trader (a checkout, a project's node_modules or a global install):
// where a strategy's `import … from 'longport-trader'` must lead, so it shares the runtime's modules.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const PACKAGE_NAME = 'longport-trader';

/** The package folder: two levels above this module, whether it runs from src/strategy or dist/strategy. */
export const INSTALLATION_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Under vitest (and tsx) the sources run as they are; the `trader` binary runs dist/. */
const RUNNING_FROM_SOURCE = import.meta.url.endsWith('.ts');

type ExportTarget = string | { readonly default?: string; readonly import?: string };

interface PackageJson {
  readonly version: string;
  readonly exports: Readonly<Record<string, ExportTarget>>;
}

let manifest: PackageJson | undefined;

function packageJson(): PackageJson {
  manifest ??= JSON.parse(readFileSync(`${INSTALLATION_ROOT}package.json`, 'utf8')) as PackageJson;
  return manifest;
}

export function installationVersion(): string {
  return packageJson().version;
}

/**
 * The file a `longport-trader[/subpath]` import means in this installation, as an absolute path; undefined
 * for any other specifier. Throws when the subpath is not exported.
 */
export function resolveSelfImport(specifier: string): string | undefined {
  if (specifier !== PACKAGE_NAME && !specifier.startsWith(`${PACKAGE_NAME}/`)) return undefined;
  const subpath = `.${specifier.slice(PACKAGE_NAME.length)}`;
  const exported = packageJson().exports;
  const target = exported[subpath];
  const file = typeof target === 'string' ? target : (target?.import ?? target?.default);
  if (file === undefined || !file.endsWith('.js')) {
    const known = Object.keys(exported)
      .filter((key) => key.startsWith('.') && !key.endsWith('.json'))
      .map((key) => `${PACKAGE_NAME}${key.slice(1)}`);
    throw new Error(`${PACKAGE_NAME} has no export "${specifier}" (it exports ${known.join(', ')})`);
  }
  return `${INSTALLATION_ROOT}${RUNNING_FROM_SOURCE ? sourceOf(file) : file.replace(/^\.\//, '')}`;
}

/**
 * The installation's bundled copy of a package (dist/vendor/NAME.js, made by scripts/build.mjs for rxjs and
 * trading-signals), which its own modules import: a strategy importing that package must get the same copy.
 * Undefined when running from source or for packages not vendored.
 */
export function vendoredModule(specifier: string): string | undefined {
  if (RUNNING_FROM_SOURCE || !/^[a-z0-9@][\w.-]*$/i.test(specifier)) return undefined;
  const file = `${INSTALLATION_ROOT}dist/vendor/${specifier}.js`;
  return existsSync(file) ? file : undefined;
}

/**
 * A path inside this installation's src/ or dist/ as the module that runs here (src/x.ts ↔ dist/x.js), so
 * an old-style `../src/strategy/index.js` import still shares the runtime's modules; undefined elsewhere.
 */
export function installedModule(path: string): string | undefined {
  const relative = path.startsWith(INSTALLATION_ROOT) ? path.slice(INSTALLATION_ROOT.length) : undefined;
  if (relative === undefined || relative.includes('node_modules')) return undefined;
  if (RUNNING_FROM_SOURCE)
    return relative.startsWith('src/') ? path : relative.startsWith('dist/') ? INSTALLATION_ROOT + sourceOf(relative) : undefined;
  if (relative.startsWith('dist/')) return path;
  return relative.startsWith('src/') ? `${INSTALLATION_ROOT}dist/${relative.slice(4).replace(/\.ts$/, '.js')}` : undefined;
}

/**
 * Where a compiled strategy's imports of this installation lead and how it is imported, when the runtime does
 * not run from dist/'s own files: the start-up snapshot (src/cli/snapshot/) holds its own copies of the modules,
 * and a strategy must share those. Undefined on the plain start.
 */
export interface RuntimeModules {
  /** Joins the compile cache key: output made for one set of modules never serves another. */
  readonly id: string;
  /** The URL a strategy imports for a module file of this installation (dist/…), or undefined for the file itself. */
  urlOf(file: string): Promise<string | undefined>;
  /** Imports the compiled strategy. */
  importModule(url: string): Promise<Record<string, unknown>>;
  /** A message naming the URLs urlOf gave (a link error) as naming the files they stand for. */
  inMessage(text: string): string;
}

let runtimeModules: RuntimeModules | undefined;

export function useRuntimeModules(modules: RuntimeModules | undefined): void {
  runtimeModules = modules;
}

export function runtimeModulesInUse(): RuntimeModules | undefined {
  return runtimeModules;
}

function sourceOf(distFile: string): string {
  return distFile.replace(/^(\.\/)?dist\//, 'src/').replace(/\.js$/, '.ts');
}
