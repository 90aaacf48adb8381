// Watchlist groups: list, create, update (rename; add, remove or replace securities) and delete (PROTOCOL.md §4,
// §7.1: the update's id is a JSON number, mode is sent only with securities, created ids come back as strings).
import { z } from 'zod';
import type { Transport } from './transport.js';
import type { NewWatchlistGroup, WatchlistGroup, WatchlistGroupUpdate } from './types.js';
import { flexibleTime, optionalDecimal, parseWire, requiredText, text } from './wire.js';

const groups = z.object({
  groups: z.array(
    z.object({
      id: requiredText,
      name: text,
      securities: z
        .array(z.object({ symbol: requiredText, market: text, name: text, watched_price: optionalDecimal, watched_at: flexibleTime }))
        .default([]),
    }),
  ),
});

export async function watchlist(transport: Transport): Promise<readonly WatchlistGroup[]> {
  const data = await transport.call({ method: 'GET', path: '/v1/watchlist/groups' });
  return parseWire(groups, data, 'GET /v1/watchlist/groups').groups.map((group) => ({
    id: group.id,
    name: group.name,
    securities: group.securities.map((security) => ({
      symbol: security.symbol,
      market: security.market,
      name: security.name,
      watchedPrice: security.watched_price,
      watchedAt: security.watched_at,
    })),
  }));
}

export async function createWatchlistGroup(transport: Transport, group: NewWatchlistGroup): Promise<{ readonly id: string }> {
  const body = { name: group.name, ...(group.securities === undefined ? {} : { securities: group.securities }) };
  const data = await transport.call({ method: 'POST', path: '/v1/watchlist/groups', body });
  return parseWire(z.object({ id: requiredText }), data, 'POST /v1/watchlist/groups');
}

export async function updateWatchlistGroup(transport: Transport, update: WatchlistGroupUpdate): Promise<void> {
  const body = {
    id: groupId(update.id),
    ...(update.name === undefined ? {} : { name: update.name }),
    ...(update.securities === undefined ? {} : { securities: update.securities, mode: update.mode ?? 'replace' }),
  };
  await transport.call({ method: 'PUT', path: '/v1/watchlist/groups', body, idempotent: true });
}

/** `purge`: also unfollow the group's securities (otherwise they stay in "All"). */
export async function deleteWatchlistGroup(transport: Transport, id: string | number, purge = false): Promise<void> {
  await transport.call({ method: 'DELETE', path: '/v1/watchlist/groups', query: { id: String(groupId(id)), purge } });
}

function groupId(id: string | number): number {
  const number = Number(id);
  if (!Number.isSafeInteger(number) || number < 0) throw new TypeError(`watchlist group id "${id}" is not a whole number`);
  return number;
}
