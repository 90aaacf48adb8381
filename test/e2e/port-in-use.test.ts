// A port another process holds is a failure of the moment, not bad input: every command that binds one says
// which flag picks another and exits with status 1 (a restart may find it free; exit status 2 stops systemd's).
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOutcomes, portCommands } from '../support/http/listening-commands.js';

let folder: string;
let holder: Server;
let port: number;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'port-in-use-'));
  holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  port = (holder.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise((resolve) => holder.close(resolve));
  await rm(folder, { recursive: true, force: true });
});

describe('a port already in use', () => {
  it('exits 1 naming the flag that picks another, for every command that listens', async () => {
    const commands = portCommands(folder, port);

    expect(await listenOutcomes(commands, 'port-in-use-token')).toEqual(
      commands.map(([flag]) => [1, [`error: port ${port} on 127.0.0.1 is already in use: pick another with ${flag} (0 picks a free one)`]]),
    );
  }, 180_000);
});
