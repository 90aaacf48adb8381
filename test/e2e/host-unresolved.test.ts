// A host name that does not resolve is named with its flag, in one line, by every command that listens on a
// host: a failure of the moment (exit status 1), as the name may resolve on a restart. `.invalid` never
// resolves (RFC 6761); a machine without DNS says EAI_AGAIN instead of ENOTFOUND.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostCommands, listenOutcomes } from '../support/http/listening-commands.js';

const HOST = 'no-such-host.invalid';
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'host-unresolved-'));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

function unresolved(flag: string): RegExp {
  return new RegExp(
    `^error: ${flag}: cannot listen on no-such-host\\.invalid: the name (does not resolve \\(ENOTFOUND\\)|could not be resolved for now \\(EAI_AGAIN\\)); give an address of this machine, e.g\\. 127\\.0\\.0\\.1 or 0\\.0\\.0\\.0$`,
  );
}

describe('a host name that does not resolve', () => {
  it('exits 1 with one line naming the host flag and the name, for every command that listens on a host', async () => {
    const commands = hostCommands(folder, HOST);

    expect(await listenOutcomes(commands, 'host-unresolved-token')).toEqual(
      commands.map(([flag]) => [1, [expect.stringMatching(unresolved(flag))]]),
    );
  }, 180_000);
});
