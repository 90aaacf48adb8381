// Running the catalog as a service: credentials, start, announce, and a graceful stop on SIGINT/SIGTERM.
import { loadCredentials } from './credentials.js';
import { type CatalogClock, type RunningCatalog, startCatalogServer } from './server.js';

export interface ServeOptions {
  readonly databasePath: string;
  readonly host: string;
  readonly port: number;
  readonly authFile?: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly clock: CatalogClock;
  readonly logLevel?: string;
  readonly bodyLimit?: number;
  /** Called once the server accepts connections (the CLI prints the address). */
  readonly onListening?: (server: RunningCatalog) => void;
}

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** Resolves after a stop signal once requests in flight finished and the database is closed. */
export async function serveCatalog(options: ServeOptions): Promise<void> {
  const credentials = await loadCredentials({ env: options.env, authFile: options.authFile });
  const server = await startCatalogServer({
    databasePath: options.databasePath,
    credentials,
    clock: options.clock,
    host: options.host,
    port: options.port,
    ...(options.logLevel === undefined ? {} : { logLevel: options.logLevel }),
    ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
  });
  server.app.log.info(
    { url: server.url, database: options.databasePath, tokens: credentials.tokens.length, apiKeys: credentials.apiKeys.length },
    'catalog listening',
  );
  options.onListening?.(server);
  const signal = await nextStopSignal();
  server.app.log.info({ signal }, 'stopping: finishing requests in flight');
  // A second signal while draining means "now": leave without waiting.
  const forceExit = (): void => process.exit(130);
  for (const name of STOP_SIGNALS) process.once(name, forceExit);
  try {
    await server.close();
    server.app.log.info('catalog stopped');
  } finally {
    for (const name of STOP_SIGNALS) process.off(name, forceExit);
  }
}

function nextStopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const handlers = STOP_SIGNALS.map((name) => {
      const handler = (): void => {
        for (const [index, other] of STOP_SIGNALS.entries()) process.off(other, handlers[index] as () => void);
        resolve(name);
      };
      process.on(name, handler);
      return handler;
    });
  });
}
