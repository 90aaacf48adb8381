// The simulated account's credentials: one app key and secret, and the access tokens it has issued (the
// first at start, more through token refresh), each valid until its own expiry on the simulator's clock.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../domain/clock.js';
import type { Credentials } from '../../openapi/http/signer.js';

/** The service's access tokens live 90 days. */
export const DEFAULT_TOKEN_LIFETIME_MS = 90 * 86_400_000;

export interface IssuedToken {
  readonly token: string;
  readonly issuedAt: number;
  readonly expiresAt: number;
}

export type TokenState = 'valid' | 'expired' | 'unknown';

/** Given credentials win, then saved ones (a restarted simulator keeps its key), then fresh random ones. */
export function resolveCredentials(given: Partial<Credentials> = {}, saved?: Credentials): Credentials {
  return {
    appKey: given.appKey ?? saved?.appKey ?? `sim-${randomBytes(8).toString('hex')}`,
    appSecret: given.appSecret ?? saved?.appSecret ?? randomBytes(24).toString('hex'),
    accessToken: given.accessToken ?? saved?.accessToken ?? `sim-token-${randomBytes(24).toString('hex')}`,
  };
}

export class TokenRegistry {
  private readonly tokens = new Map<string, IssuedToken>();

  constructor(private readonly clock: Clock) {}

  /** Adds a token (the configured one, or one restored from a state file). */
  add(token: IssuedToken): void {
    this.tokens.set(token.token, token);
  }

  /** A new token valid until `expiresAt`. */
  issue(expiresAt: number): IssuedToken {
    const token: IssuedToken = { token: `sim-token-${randomBytes(24).toString('hex')}`, issuedAt: this.clock.now(), expiresAt };
    this.add(token);
    return token;
  }

  state(token: string): TokenState {
    const issued = this.tokens.get(token);
    if (issued === undefined) return 'unknown';
    return this.clock.now() >= issued.expiresAt ? 'expired' : 'valid';
  }

  expiryOf(token: string): number | undefined {
    return this.tokens.get(token)?.expiresAt;
  }

  all(): IssuedToken[] {
    return [...this.tokens.values()];
  }
}
