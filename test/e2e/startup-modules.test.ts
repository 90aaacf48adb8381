// Commands load only what they use: the files each process loaded, read from Node's own module debug log.
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { expectSuccess, loadedFiles, runProcess } from '../support/package/run-process.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const HEAVY = ['fastify', 'better-sqlite3', 'protobufjs', 'pino', 'ws', 'undici', 'zod', 'rxjs', 'esbuild', 'yaml', 'cli-progress'];

async function filesLoadedBy(args: readonly string[]): Promise<{ ours: string[]; packages: string[] }> {
  const run = expectSuccess(
    await runProcess(process.execPath, ['bin/trader.js', ...args], { cwd: REPO, env: { NODE_DEBUG: 'esm,module' } }),
    `trader ${args.join(' ')}`,
  );
  const files = loadedFiles(run.stderr);
  const packages = new Set(files.flatMap((file) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1] ?? []));
  return {
    ours: files.filter((file) => file.startsWith(`${REPO}dist/`)).map((file) => relative(`${REPO}dist`, file)),
    packages: [...packages].sort(),
  };
}

describe('start-up of the trader binary', () => {
  it('loads only yargs and the command lists for `trader --help`', async () => {
    const loaded = await filesLoadedBy(['--help']);

    expect(
      loaded.ours.every(
        (file) =>
          file.startsWith('cli/commands/') ||
          [
            'cli/main.js',
            'cli/empty-flags.js',
            'cli/errors.js',
            'cli/help-examples.js',
            'cli/repeated-flags.js',
            'domain/errors.js',
            'log/console-to-stderr.js',
          ].includes(file),
      ),
    ).toBe(true);
    expect(loaded.packages.filter((name) => HEAVY.includes(name))).toEqual([]);
    expect(loaded.packages).toContain('yargs');
  });

  it('loads the simulator, the journal and the servers for none of `trader backtest`', async () => {
    const loaded = await filesLoadedBy(['backtest', 'strategies/sma-crossover.ts', '--json', '-']);

    expect(
      loaded.packages.filter((name) =>
        ['fastify', 'better-sqlite3', 'protobufjs', 'ws', 'undici', 'pino-pretty', 'cli-progress'].includes(name),
      ),
    ).toEqual([]);
    expect(loaded.ours.filter((file) => /^(sim\/server\/|openapi\/|store\/sqlite|schedule\/|catalog\/)/.test(file))).toEqual([]);
    expect(loaded.ours).toContain('backtest/engine.js');
  });
});
