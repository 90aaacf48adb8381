// One quote connection per account (the service allows one): every consumer in the process leases the same
// QuoteClient, and the connection closes when the last lease is released.
import { QuoteClient, type QuoteClientOptions } from './quote-client.js';

export interface QuoteLease {
  readonly client: QuoteClient;
  /** Gives the lease back; the last one closes the connection. Idempotent. */
  release(): Promise<void>;
}

interface Entry {
  readonly client: Promise<QuoteClient>;
  users: number;
}

const connections = new Map<string, Entry>();

/** `account` identifies the account (its app key); options of later leases of the same account are ignored. */
export async function leaseQuoteClient(account: string, options: QuoteClientOptions): Promise<QuoteLease> {
  let entry = connections.get(account);
  if (entry === undefined) {
    const created: Entry = { client: QuoteClient.connect(options), users: 0 };
    entry = created;
    connections.set(account, created);
    created.client.catch(() => {
      if (connections.get(account) === created) connections.delete(account);
    });
  }
  entry.users++;
  const held = entry;
  let client: QuoteClient;
  try {
    client = await held.client;
  } catch (error) {
    held.users--;
    throw error;
  }
  let released = false;
  return {
    client,
    release: async () => {
      if (released) return;
      released = true;
      held.users--;
      if (held.users > 0) return;
      if (connections.get(account) === held) connections.delete(account);
      await client.close();
    },
  };
}
