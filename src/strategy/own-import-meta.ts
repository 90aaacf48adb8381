// The compiled strategy runs from the cache folder, so `import.meta.url` there would name the cache, not the
// file the user wrote: `new URL('./settings.json', import.meta.url)` would look beside the cached bundle. Each
// file of the bundle has its own `import.meta.url`, `.dirname` and `.filename` written in as the source
// file's (lines stay where they were, so stack traces still name the right ones).
import { readFile } from 'node:fs/promises';
import { dirname, extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Loader, Plugin } from 'esbuild';

const IMPORT_META = /\bimport\.meta\.(url|dirname|filename)\b/g;

const LOADERS: Readonly<Record<string, Loader>> = {
  '.ts': 'ts',
  '.mts': 'ts',
  '.cts': 'ts',
  '.tsx': 'tsx',
  '.js': 'js',
  '.mjs': 'js',
  '.cjs': 'js',
  '.jsx': 'jsx',
};

export function ownImportMeta(): Plugin {
  return {
    name: 'own-import-meta',
    setup(build) {
      build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async (args) => {
        const loader = LOADERS[extname(args.path)];
        if (loader === undefined) return undefined;
        const source = await readFile(args.path, 'utf8');
        if (!source.includes('import.meta.')) return undefined;
        const values: Readonly<Record<string, string>> = {
          url: pathToFileURL(args.path).href,
          dirname: dirname(args.path),
          filename: args.path,
        };
        return { contents: source.replace(IMPORT_META, (_, field: string) => JSON.stringify(values[field])), loader };
      });
    },
  };
}
