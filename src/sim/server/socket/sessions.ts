// Long-connection credentials: one-time passwords (single use, short-lived) issued over HTTP and redeemed by
// auth (cmd 2), and the sessions auth opens, which a reconnect (cmd 3) may resume until they expire.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../../domain/clock.js';

export interface SessionSettings {
  /** How long an issued one-time password may wait for its auth. */
  readonly otpLifetimeMs: number;
  /** How long a session may be resumed after auth. */
  readonly sessionLifetimeMs: number;
  /** Connections the account may hold at once (reported with each password; enforced at auth). */
  readonly connectionLimit: number;
}

export const DEFAULT_SESSION_SETTINGS: SessionSettings = { otpLifetimeMs: 5 * 60_000, sessionLifetimeMs: 60 * 60_000, connectionLimit: 10 };

export interface Session {
  readonly sessionId: string;
  /** Epoch ms. */
  readonly expires: number;
}

export type Redemption = 'ok' | 'unknown' | 'expired';

export class SocketSessions {
  /** Password → expiry; removed when redeemed, so each works once. */
  private readonly passwords = new Map<string, number>();
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly clock: Clock,
    readonly settings: SessionSettings,
    private readonly online: () => number,
  ) {}

  issue(): { otp: string; limit: number; online: number } {
    const otp = `otp-${randomBytes(16).toString('hex')}`;
    this.passwords.set(otp, this.clock.now() + this.settings.otpLifetimeMs);
    return { otp, limit: this.settings.connectionLimit, online: this.online() };
  }

  redeem(otp: string): Redemption {
    const expires = this.passwords.get(otp);
    if (expires === undefined) return 'unknown';
    this.passwords.delete(otp);
    return this.clock.now() >= expires ? 'expired' : 'ok';
  }

  open(): Session {
    const session = {
      sessionId: `session-${randomBytes(12).toString('hex')}`,
      expires: this.clock.now() + this.settings.sessionLifetimeMs,
    };
    this.sessions.set(session.sessionId, session);
    return session;
  }

  /** The session when it is known and still valid. */
  resume(sessionId: string): Session | undefined {
    const session = this.sessions.get(sessionId);
    if (session === undefined) return undefined;
    if (this.clock.now() >= session.expires) {
      this.sessions.delete(sessionId);
      return undefined;
    }
    return session;
  }
}
