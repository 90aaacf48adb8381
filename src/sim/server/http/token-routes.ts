// Tokens: access-token refresh (a new token valid until `expired_at`, RFC 3339, at most 90 days ahead) and the
// one-time password for the long connections.
import { z } from 'zod';
import type { Clock } from '../../../domain/clock.js';
import { rfc3339Seconds } from '../../../openapi/http/token-endpoints.js';
import { DEFAULT_TOKEN_LIFETIME_MS, type TokenRegistry } from '../credentials.js';
import { readQuery, type Route } from './router.js';
import { ServiceFailure } from './service-failure.js';

export interface SocketTokens {
  /** A fresh one-time password and the account's connection counts. */
  issue(): { readonly otp: string; readonly limit: number; readonly online: number };
}

const refreshQuery = z.object({
  expired_at: z
    .string()
    .refine((text) => !Number.isNaN(Date.parse(text)), 'is not an RFC 3339 time')
    .optional(),
});

export function tokenRoutes(tokens: TokenRegistry, sockets: SocketTokens, clock: Clock): Route[] {
  return [
    {
      method: 'GET',
      pattern: '/v1/token/refresh',
      handler: (request) => {
        const query = readQuery(request, refreshQuery);
        const now = clock.now();
        const expiresAt = query.expired_at === undefined ? now + DEFAULT_TOKEN_LIFETIME_MS : Date.parse(query.expired_at);
        if (expiresAt <= now || expiresAt > now + DEFAULT_TOKEN_LIFETIME_MS + 86_400_000) {
          throw ServiceFailure.invalid('expired_at', 'must be in the future and at most 90 days ahead');
        }
        const issued = tokens.issue(expiresAt);
        return { token: issued.token, expired_at: rfc3339Seconds(issued.expiresAt), issued_at: rfc3339Seconds(issued.issuedAt) };
      },
    },
    { method: 'GET', pattern: '/v1/socket/token', handler: () => sockets.issue() },
  ];
}
