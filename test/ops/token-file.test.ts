import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.js';
import { LogTail } from '../../src/ops/log-tail.js';
import { loadOrCreateToken } from '../../src/ops/token-file.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
function folder(): string {
  const made = mkdtempSync(join(tmpdir(), 'ui-token-'));
  folders.push(made);
  return made;
}

describe('the dashboard token file', () => {
  it('is generated on first start with mode 600 (its folder made), then read back unchanged', () => {
    const file = join(folder(), 'state', 'ui-token');
    const tail = new LogTail();
    const logger = createLogger({ destination: tail });

    const first = loadOrCreateToken(file, logger);
    const second = loadOrCreateToken(file, logger);

    expect(first.created).toBe(true);
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toBe(`${first.token}\n`);
    expect(second).toEqual({ token: first.token, created: false, file });
    expect(loadOrCreateToken(join(folder(), 'ui-token'), logger).token).not.toBe(first.token);
    expect(JSON.stringify(tail.recent())).not.toContain(first.token);
  });

  it('tightens a token file others could read, with a warning that does not show the token', () => {
    const file = join(folder(), 'ui-token');
    writeFileSync(file, 'a-token-chosen-by-the-user-0123456789\n');
    chmodSync(file, 0o644);
    const tail = new LogTail();

    const token = loadOrCreateToken(file, createLogger({ destination: tail }));

    expect(token).toEqual({ token: 'a-token-chosen-by-the-user-0123456789', created: false, file });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(tail.recent().map((line) => line.message)).toEqual(['the dashboard token file was readable by others; its mode is now 600']);
    expect(JSON.stringify(tail.recent())).not.toContain('a-token-chosen');
  });

  it('refuses a file whose content is not one usable token, naming the flag', () => {
    const file = join(folder(), 'ui-token');
    writeFileSync(file, 'short\n', { mode: 0o600 });
    expect(() => loadOrCreateToken(file, createLogger({ destination: new LogTail() }))).toThrow(
      /^--ui-token-file: .*ui-token must hold one token of at least 16 characters without spaces/,
    );
  });
});
