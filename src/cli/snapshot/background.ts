// After a plain start that found no snapshot (bin/trader.js asks for one), the snapshot is built by a process of
// its own, at low priority, once this command has ended: the next run starts from it.
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';

const BUILDER = fileURLToPath(new URL('./build.js', import.meta.url));

/** `target`: the launcher's three lines (where the snapshot goes, its stamp, the node binary). */
export function buildAfterExit(target: string): void {
  process.once('exit', () => {
    try {
      const { NODE_OPTIONS: _ignored, ...env } = process.env;
      const child = spawn(process.execPath, [BUILDER], {
        detached: true,
        stdio: 'ignore',
        windowsHide: true,
        env: { ...env, TRADER_SNAPSHOT_BUILD: target },
      });
      child.unref();
      if (child.pid !== undefined) setPriority(child.pid, 19);
    } catch {
      // Without a snapshot every run takes the plain start: slower, never wrong.
    }
  });
}
