// The status snapshot as a file in the state dir, rewritten on every change and periodically, so a separate
// `trader status` process can read it.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Clock, TimerHandle } from '../domain/clock.js';
import { TraderError } from '../domain/errors.js';
import { silentLogger, type Logger } from '../log/logger.js';
import { writeFileAtomic } from './atomic-file.js';
import type { StatusSnapshot } from './status.js';

export function statusFilePath(stateDir: string): string {
  return path.join(stateDir, 'schedule-status.json');
}

export async function readStatusFile(file: string): Promise<StatusSnapshot> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new TraderError(
      'NO_STATUS',
      `no scheduler status at ${file}: no \`trader schedule\` has run with this state dir (pass --state, or the config file)`,
    );
  }
  let parsed: Partial<StatusSnapshot>;
  try {
    parsed = JSON.parse(text) as Partial<StatusSnapshot>;
  } catch {
    throw new TraderError('NO_STATUS', `${file} is not a scheduler status file (not JSON)`);
  }
  if (parsed.version !== 1 || !Array.isArray(parsed.jobs)) throw new TraderError('NO_STATUS', `${file} is not a scheduler status file`);
  return parsed as StatusSnapshot;
}

/** Whether a process with this id exists on this machine (signal 0 checks without sending anything). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface StatusPublisherOptions {
  readonly clock: Clock;
  readonly file: string;
  readonly collect: () => Promise<StatusSnapshot>;
  /** Rewrites even without changes, so readers can tell a live scheduler from a dead one by the age. */
  readonly intervalMs?: number;
  readonly logger?: Logger;
}

/** Writes snapshots to the file; changes coming in while a write is under way are coalesced into one more. */
export class StatusPublisher {
  private timer: TimerHandle | undefined;
  private writing: Promise<void> | undefined;
  private dirty = false;

  constructor(private readonly options: StatusPublisherOptions) {}

  start(): void {
    this.timer = this.options.clock.setInterval(() => this.publish(), this.options.intervalMs ?? 15_000);
    this.publish();
  }

  publish(): void {
    if (this.writing !== undefined) {
      this.dirty = true;
      return;
    }
    this.writing = this.write().finally(() => {
      this.writing = undefined;
      if (this.dirty) {
        this.dirty = false;
        this.publish();
      }
    });
  }

  /** Stops the periodic rewrite after a last write. */
  async stop(): Promise<void> {
    this.timer?.cancel();
    this.publish();
    while (this.writing !== undefined) await this.writing;
  }

  private async write(): Promise<void> {
    try {
      const snapshot = await this.options.collect();
      writeFileAtomic(this.options.file, `${JSON.stringify(snapshot, null, 2)}\n`);
    } catch (error) {
      (this.options.logger ?? silentLogger).warn(
        { file: this.options.file, error: (error as Error).message },
        'could not write the status file',
      );
    }
  }
}
