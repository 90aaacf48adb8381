// Checking a request's credentials: Bearer token or X-API-Key, compared in constant time against SHA-256 digests.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Credentials } from './credentials.js';
import { ApiError, ERROR_CODES } from './errors.js';

export const AUTH_REALM = 'catalog';

export type Authenticator = (headers: IncomingHttpHeaders) => boolean;

/**
 * Hashing first gives every comparison the same 32-byte length, so timingSafeEqual never leaks a secret's
 * length; every configured digest is compared (no early exit), so neither does which one matched.
 */
export function createAuthenticator(credentials: Credentials): Authenticator {
  const tokenDigests = credentials.tokens.map(digest);
  const keyDigests = credentials.apiKeys.map(digest);
  return (headers) => {
    const token = bearerToken(headers.authorization);
    const key = typeof headers['x-api-key'] === 'string' ? headers['x-api-key'] : undefined;
    const tokenOk = token !== undefined && matchesAny(digest(token), tokenDigests);
    const keyOk = key !== undefined && matchesAny(digest(key), keyDigests);
    return tokenOk || keyOk;
  };
}

export function unauthorized(headers: IncomingHttpHeaders): ApiError {
  const presented = headers.authorization !== undefined || headers['x-api-key'] !== undefined;
  const challenge = presented ? `Bearer realm="${AUTH_REALM}", error="invalid_token"` : `Bearer realm="${AUTH_REALM}"`;
  const message = presented
    ? 'the credentials are not valid; send Authorization: Bearer <token> or X-API-Key: <key>'
    : 'credentials required; send Authorization: Bearer <token> or X-API-Key: <key>';
  return new ApiError(401, ERROR_CODES.unauthorized, message, [], { 'www-authenticate': challenge });
}

function bearerToken(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1];
}

function digest(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

function matchesAny(candidate: Buffer, digests: readonly Buffer[]): boolean {
  let matched = false;
  for (const known of digests) matched = timingSafeEqual(candidate, known) || matched;
  return matched;
}
