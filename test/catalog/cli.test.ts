import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { call, CatalogHarness } from './harness.js';

const harness = new CatalogHarness();
const children = new Set<ChildProcess>();
afterEach(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children.clear();
  await harness.cleanup();
});

interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function runCli(
  args: readonly string[],
  env: Record<string, string>,
): { child: ChildProcess; finished: Promise<Finished>; output: () => string } {
  const { CATALOG_TOKENS: _tokens, CATALOG_API_KEYS: _keys, ...inherited } = process.env;
  const child = spawn(process.execPath, ['bin/trader.js', ...args], { env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr?.on('data', (chunk) => (stderr += String(chunk)));
  const finished = new Promise<Finished>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { child, finished, output: () => stdout };
}

/** Resolves with the API URL the CLI prints once it listens; rejects if it exits first. */
function listeningUrl(run: ReturnType<typeof runCli>): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      const match = /listening on (\S+)/.exec(run.output());
      if (match?.[1] !== undefined) resolve(match[1]);
    };
    run.child.stdout?.on('data', check);
    void run.finished.then((result) => reject(new Error(`catalog exited with ${result.code} before listening: ${result.stderr}`)));
  });
}

describe('trader catalog serve', () => {
  it('refuses to start without credentials, saying how to give them', async () => {
    const database = join(harness.tempDirectory(), 'catalog.sqlite');

    const result = await runCli(['catalog', 'serve', '--port', '0', '--db', database], {}).finished;

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: catalog: refusing to start without credentials: set CATALOG_TOKENS and/or CATALOG_API_KEYS');
    expect(result.stderr).toContain('--auth FILE');
    expect(result.stdout).not.toContain('listening');
  });

  it('names --host when the address is not this machine (exit 2) and --port when it is taken (exit 1)', async () => {
    const directory = harness.tempDirectory();
    const env = { CATALOG_TOKENS: 'cli-token' };
    const first = runCli(['catalog', 'serve', '--port', '0', '--db', join(directory, 'a.sqlite')], env);
    const port = new URL(await listeningUrl(first)).port;

    const [foreign, taken] = await Promise.all([
      runCli(['catalog', 'serve', '--host', '192.0.2.1', '--port', '0', '--db', join(directory, 'b.sqlite')], env).finished,
      runCli(['catalog', 'serve', '--port', port, '--db', join(directory, 'c.sqlite')], env).finished,
    ]);
    first.child.kill('SIGTERM');
    await first.finished;

    expect([foreign.code, foreign.stderr]).toEqual([
      2,
      'error: --host: cannot listen on 192.0.2.1 (EADDRNOTAVAIL): give an address of this machine, e.g. 127.0.0.1 or 0.0.0.0\n',
    ]);
    expect([taken.code, taken.stderr]).toEqual([
      1,
      `error: port ${port} on 127.0.0.1 is already in use: pick another with --port (0 picks a free one)\n`,
    ]);
  });

  it('names the --auth file and field that is wrong', async () => {
    const directory = harness.tempDirectory();
    const auth = join(directory, 'auth.json');
    writeFileSync(auth, '{"tokens": "one-token"}');

    const result = await runCli(['catalog', 'serve', '--port', '0', '--db', join(directory, 'c.sqlite'), '--auth', auth], {}).finished;

    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`error: ${auth}: tokens: must be an array of strings`);
  });

  it('serves with a key from the --auth file, stops cleanly on SIGTERM and keeps what it stored', async () => {
    const directory = harness.tempDirectory();
    const database = join(directory, 'catalog.sqlite');
    const auth = join(directory, 'auth.json');
    writeFileSync(auth, JSON.stringify({ apiKeys: ['cli-key-123456'] }));
    const run = runCli(['catalog', 'serve', '--port', '0', '--db', database, '--auth', auth], {});
    const url = await listeningUrl(run);

    const created = await call(url, 'POST', '/artists', {
      json: { name: 'Los Gatos' },
      auth: 'none',
      headers: { 'x-api-key': 'cli-key-123456' },
    });
    run.child.kill('SIGTERM');
    const result = await run.finished;

    expect(created.status).toBe(201);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('catalog stopped');
    expect(result.stderr).not.toContain('cli-key-123456');
    const reopened = await harness.start({}, database);
    const fetched = await reopened.call('GET', `/artists/${created.body.id}`);
    expect(fetched.body).toMatchObject({ name: 'Los Gatos', albums: [] });
  });
});
