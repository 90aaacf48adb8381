// Confirms the quote subscriptions the strategies asked for are held by the service (its subscription
// list, cmd 5, asked over the same connection) before a run reports itself running; a paper replay starts
// only then, so its first tick reaches the strategies.
import { TraderError } from '../domain/errors.js';
import type { QuoteClient } from '../openapi/socket/quote-client.js';

/**
 * Resolves with the symbols the service holds once they cover every one the client asked for. The client's
 * own subscribe calls are answered first; the list is then asked within the client's call limits (the
 * service refuses more than 10 calls a second: asked in a loop, three symbols' worth broke a paper run).
 */
export async function whenSubscribed(client: QuoteClient, attempts = 20): Promise<readonly string[]> {
  await client.whenSubscribed();
  const wanted = client.subscribedSymbols;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const held = [...new Set((await client.subscriptions()).map((entry) => entry.symbol))];
    if (held.length >= wanted) return held;
  }
  throw new TraderError(
    'NOT_SUBSCRIBED',
    `the service holds fewer than the ${wanted} quote subscriptions asked for; market data would not arrive`,
  );
}
