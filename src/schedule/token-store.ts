// The access token the scheduler refreshed, kept in the state dir (readable by the owner only), so a restart
// uses it rather than the older one in the environment, which the refresh may have invalidated. It is used
// only while the environment still holds the token it replaced: a token the user put there since wins.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { silentLogger, type Logger } from '../log/logger.js';
import { writeFileAtomic } from './atomic-file.js';

export interface StoredToken {
  readonly appKey: string;
  readonly token: string;
  /** Epoch ms. */
  readonly expiresAt: number;
  /** SHA-256 of the environment's token this one replaces (never the token itself). */
  readonly replaces: string;
}

const tokenSchema = z.object({ appKey: z.string(), token: z.string().min(1), expiresAt: z.number(), replaces: z.string() });

export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export class TokenStore {
  constructor(
    private readonly file: string,
    private readonly logger: Logger = silentLogger,
  ) {}

  /** The stored token that replaces `environmentToken` of `appKey`, or undefined. */
  replacementFor(appKey: string, environmentToken: string): StoredToken | undefined {
    const stored = this.load();
    return stored !== undefined && stored.appKey === appKey && stored.replaces === tokenDigest(environmentToken) ? stored : undefined;
  }

  /** The stored token, or undefined when there is none (or it cannot be read). */
  load(): StoredToken | undefined {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return undefined;
    }
    try {
      return tokenSchema.parse(JSON.parse(text));
    } catch {
      this.logger.warn({ file: this.file }, 'ignoring an unreadable token file');
      return undefined;
    }
  }

  save(token: StoredToken): void {
    writeFileAtomic(this.file, `${JSON.stringify(token)}\n`, 0o600);
  }
}
