// Confirms the quote subscriptions the strategies asked for are held by the service (its subscription
// list, cmd 5, asked over the same connection) before a run reports itself running; a paper replay starts
// only then, so its first tick reaches the strategies.
import { TraderError } from '../domain/errors.js';
import { QUOTE_COMMANDS } from '../openapi/socket/commands.js';
import { messages } from '../openapi/socket/messages.js';
import type { QuoteClient } from '../openapi/socket/quote-client.js';

/** Resolves with the symbols the service holds once they cover every one the client asked for. */
export async function whenSubscribed(client: QuoteClient, attempts = 200): Promise<readonly string[]> {
  const wanted = client.subscribedSymbols;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const list = messages.subscriptionResponse.decode(await client.connection.request(QUOTE_COMMANDS.subscriptions, new Uint8Array()));
    const held = [...new Set(list.subList.map((entry) => entry.symbol))];
    if (held.length >= wanted) return held;
  }
  throw new TraderError(
    'NOT_SUBSCRIBED',
    `the service holds fewer than the ${wanted} quote subscriptions asked for; market data would not arrive`,
  );
}
