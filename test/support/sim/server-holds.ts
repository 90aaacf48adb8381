// Waits, without sleeping, until the simulator holds a quote subscription: asks the subscription list (cmd 5)
// over the client's own connection until the symbol is in it (requests on one connection are answered in order).
import { QUOTE_COMMANDS } from '../../../src/openapi/socket/commands.js';
import { messages } from '../../../src/openapi/socket/messages.js';
import type { QuoteClient } from '../../../src/openapi/socket/quote-client.js';

export async function serverHolds(client: QuoteClient, symbol: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const list = messages.subscriptionResponse.decode(await client.connection.request(QUOTE_COMMANDS.subscriptions, new Uint8Array()));
    if (list.subList.some((entry) => entry.symbol === symbol)) return;
  }
  throw new Error(`the simulator never held a subscription to ${symbol}`);
}
