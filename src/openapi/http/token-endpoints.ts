// Token lifetime (PROTOCOL.md §3): refresh the access token, and the one-time socket token the long connection
// authenticates with. The official SDK sends `expired_at` as RFC 3339 in whole seconds (observed: longport@3.0.18).
import { z } from 'zod';
import type { Transport } from './transport.js';
import type { RefreshedToken, SocketToken } from './types.js';
import { flexibleTime, integer, parseWire, requiredText, time } from './wire.js';

/** RFC 3339 in UTC without fractions, as the SDK writes it: 2025-03-04T05:06:07Z. */
export function rfc3339Seconds(epochMs: number): string {
  return new Date(Math.floor(epochMs / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

export async function refreshToken(transport: Transport, expiresAt: number): Promise<RefreshedToken> {
  const data = await transport.call({ method: 'GET', path: '/v1/token/refresh', query: { expired_at: rfc3339Seconds(expiresAt) } });
  const row = parseWire(z.object({ token: requiredText, expired_at: time, issued_at: flexibleTime }), data, 'GET /v1/token/refresh');
  return { token: row.token, expiresAt: row.expired_at, issuedAt: row.issued_at };
}

export async function socketToken(transport: Transport): Promise<SocketToken> {
  const data = await transport.call({ method: 'GET', path: '/v1/socket/token' });
  return parseWire(z.object({ otp: requiredText, limit: integer, online: integer }), data, 'GET /v1/socket/token');
}
