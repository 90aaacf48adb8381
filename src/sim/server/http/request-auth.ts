// Who may call: the app key (403203), the access token (401004 unknown, 401003 expired), the signature over
// the raw query and body bytes (403201, PROTOCOL.md §1), and replay protection (403202): a write whose
// signature was already seen within the window is refused. Reads are exempt: the SDK signs whole seconds,
// so two identical reads within one second carry the same signature and are harmless to repeat.
import type { IncomingHttpHeaders } from 'node:http';
import type { Clock } from '../../../domain/clock.js';
import { verifySignature } from '../../../openapi/http/signer.js';
import type { TokenRegistry } from '../credentials.js';
import { ServiceFailure, SIM_CODES } from './service-failure.js';

export interface SignedRequest {
  readonly method: string;
  readonly path: string;
  /** Raw query string as received (no `?`). */
  readonly query: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** How long a seen signature is remembered. */
const DEFAULT_REPLAY_WINDOW_MS = 5 * 60_000;

const TIMESTAMP = /^\d+(\.\d+)?$/;

export class RequestAuthenticator {
  /** Signature → when it stops counting as a replay (insertion order = expiry order). */
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly account: { readonly appKey: string; readonly appSecret: string },
    private readonly tokens: TokenRegistry,
    private readonly clock: Clock,
    private readonly replayWindowMs: number = DEFAULT_REPLAY_WINDOW_MS,
  ) {}

  /** Throws the ServiceFailure the request earns, or returns when it may proceed. */
  check(request: SignedRequest): void {
    const header = (name: string): string => {
      const value = request.headers[name];
      return (Array.isArray(value) ? value[0] : value) ?? '';
    };
    if (header('x-api-key') !== this.account.appKey) throw new ServiceFailure(403, SIM_CODES.API_KEY_ILLEGAL, 'api key illegal');
    const token = header('authorization');
    const state = this.tokens.state(token);
    if (state === 'unknown') throw new ServiceFailure(401, SIM_CODES.TOKEN_INVALID, 'token invalid');
    if (state === 'expired') throw new ServiceFailure(401, SIM_CODES.TOKEN_EXPIRED, 'token expired');
    const timestamp = header('x-timestamp');
    const signed = {
      method: request.method,
      path: request.path,
      query: request.query,
      accessToken: token,
      appKey: this.account.appKey,
      timestamp,
      body: request.body,
    };
    if (!TIMESTAMP.test(timestamp) || !verifySignature(this.account.appSecret, signed, header('x-api-signature'))) {
      throw new ServiceFailure(403, SIM_CODES.SIGNATURE_INVALID, 'signature invalid');
    }
    if (request.method !== 'GET') this.guardReplay(header('x-api-signature'));
  }

  private guardReplay(signature: string): void {
    const now = this.clock.now();
    for (const [key, until] of this.seen) {
      if (until > now) break;
      this.seen.delete(key);
    }
    const until = this.seen.get(signature);
    if (until !== undefined && until > now) throw new ServiceFailure(403, SIM_CODES.DUPLICATE_REQUEST, 'duplicate request');
    this.seen.set(signature, now + this.replayWindowMs);
  }
}
