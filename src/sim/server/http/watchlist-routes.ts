// Watchlist groups, kept in memory for the run: group 1 ("all") starts with the simulated symbols and, like the
// service's "All", holds every followed security; created groups get the next ids. Updates add, remove or
// replace securities (and rename); deleting a group with purge also unfollows its securities (drops them from
// "all"), without purge they stay there. Request shapes as the official SDK sends them (PROTOCOL.md §7.1).
import { z } from 'zod';
import { marketOf, parseSymbol, type SecuritySymbol } from '../../../domain/symbol.js';
import { readBody, readQuery, type Route } from './router.js';
import { ServiceFailure, SIM_CODES } from './service-failure.js';

export interface WatchlistSources {
  readonly symbols: readonly SecuritySymbol[];
  readonly nameOf: (symbol: SecuritySymbol) => string;
  /** Epoch ms, for the time a security was added. */
  readonly now: () => number;
}

interface Group {
  readonly id: number;
  name: string;
  /** Symbol → unix seconds it was added. */
  readonly securities: Map<SecuritySymbol, number>;
}

const ALL_GROUP = 1;
const symbols = z.array(z.string().transform((text) => parseSymbol(text)));
const createBody = z.object({ name: z.string().trim().min(1), securities: symbols.optional() });
const updateBody = z.object({
  id: z.coerce.number().int(),
  name: z.string().trim().min(1).optional(),
  securities: symbols.optional(),
  mode: z.enum(['add', 'remove', 'replace']).optional(),
});
const deleteQuery = z.object({ id: z.coerce.number().int(), purge: z.enum(['true', 'false']).default('false') });

export function watchlistRoutes(sources: WatchlistSources): Route[] {
  const seconds = (): number => Math.floor(sources.now() / 1000);
  const groups = new Map<number, Group>([
    [ALL_GROUP, { id: ALL_GROUP, name: 'all', securities: new Map(sources.symbols.map((symbol) => [symbol, 0])) }],
  ]);
  let nextId = ALL_GROUP + 1;
  const groupOf = (id: number): Group => {
    const group = groups.get(id);
    if (group === undefined) throw new ServiceFailure(404, SIM_CODES.NOT_FOUND, `watchlist group ${id} not found`);
    return group;
  };
  const follow = (group: Group, added: readonly SecuritySymbol[]): void => {
    for (const symbol of added) {
      if (!group.securities.has(symbol)) group.securities.set(symbol, seconds());
      const all = groups.get(ALL_GROUP)!;
      if (!all.securities.has(symbol)) all.securities.set(symbol, seconds());
    }
  };

  return [
    {
      method: 'GET',
      pattern: '/v1/watchlist/groups',
      handler: () => ({
        groups: [...groups.values()].map((group) => ({
          id: String(group.id),
          name: group.name,
          securities: [...group.securities].map(([symbol, watchedAt]) => ({
            symbol,
            market: marketOf(symbol),
            name: sources.nameOf(symbol),
            watched_price: '',
            watched_at: String(watchedAt),
          })),
        })),
      }),
    },
    {
      method: 'POST',
      pattern: '/v1/watchlist/groups',
      handler: (request) => {
        const body = readBody(request, createBody);
        const group: Group = { id: nextId++, name: body.name, securities: new Map() };
        groups.set(group.id, group);
        follow(group, body.securities ?? []);
        return { id: String(group.id) };
      },
    },
    {
      method: 'PUT',
      pattern: '/v1/watchlist/groups',
      handler: (request) => {
        const body = readBody(request, updateBody);
        const group = groupOf(body.id);
        if (body.name !== undefined) group.name = body.name;
        if (body.securities !== undefined) {
          const mode = body.mode ?? 'replace';
          if (mode === 'replace') group.securities.clear();
          if (mode === 'remove') for (const symbol of body.securities) group.securities.delete(symbol);
          else follow(group, body.securities);
        }
        return {};
      },
    },
    {
      method: 'DELETE',
      pattern: '/v1/watchlist/groups',
      handler: (request) => {
        const query = readQuery(request, deleteQuery);
        if (query.id === ALL_GROUP) throw ServiceFailure.invalid('id', 'names the "all" group, which cannot be deleted');
        const group = groupOf(query.id);
        groups.delete(query.id);
        if (query.purge === 'true') for (const symbol of group.securities.keys()) groups.get(ALL_GROUP)!.securities.delete(symbol);
        return {};
      },
    },
  ];
}
