// A port this user may not bind (below the kernel's ip_unprivileged_port_start, 1024 by default, without root or
// CAP_NET_BIND_SERVICE) is named with its flag, in one line, exit status 1, by every command that listens. The
// EACCES is a real one: as root, each command runs under setpriv with CAP_NET_BIND_SERVICE out of its bounding
// set, so it may bind such a port no more than any other user.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOutcomes, portCommands } from '../support/http/listening-commands.js';

const UNPRIVILEGED_START = '/proc/sys/net/ipv4/ip_unprivileged_port_start';
const start = existsSync(UNPRIVILEGED_START) ? Number(readFileSync(UNPRIVILEGED_START, 'utf8')) : 0;
const root = process.getuid?.() === 0;
const launcher = root ? ['setpriv', '--bounding-set=-net_bind_service'] : [];
// No EACCES to provoke where every port is open to every user (Linux with the start at 0, macOS), or as root without setpriv.
const unprovoked = start < 2 || (root && spawnSync('setpriv', ['--version']).error !== undefined);
const port = Math.min(80, start - 1);

let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'port-not-permitted-'));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe.skipIf(unprovoked)('a port this user may not bind', () => {
  it('exits 1 with one line naming the flag and the port, for every command that listens', async () => {
    const commands = portCommands(folder, port);

    expect(await listenOutcomes(commands, 'port-not-permitted-token', launcher)).toEqual(
      commands.map(([flag]) => [
        1,
        [
          `error: port ${port} on 127.0.0.1 is not permitted for this user (EACCES; ports below 1024 need root or CAP_NET_BIND_SERVICE): pick another with ${flag} (0 picks a free one)`,
        ],
      ]),
    );
  }, 180_000);
});
