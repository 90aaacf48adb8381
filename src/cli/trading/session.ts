// Runs one command against the OpenAPI: credentials from the environment, logs on stderr, the client closed
// afterwards whatever happens. The client (undici, pino) is loaded only when a trading command runs, so other
// `trader` commands and --help do not pay for it.
import { systemClock } from '../../clock/system-clock.js';
import { configFromEnv } from '../../openapi/config.js';
import type { OpenApiHttp } from '../../openapi/http/client.js';

export interface GlobalFlags {
  readonly json?: boolean;
  readonly verbose?: boolean;
}

export async function withOpenApi<T>(flags: GlobalFlags, work: (client: OpenApiHttp) => Promise<T>): Promise<T> {
  const config = configFromEnv();
  const [{ createLogger }, { createOpenApiHttp }] = await Promise.all([
    import('../../log/logger.js'),
    import('../../openapi/http/client.js'),
  ]);
  const logger = createLogger({ level: flags.verbose ? 'debug' : 'warn', pretty: process.stderr.isTTY === true });
  const client = createOpenApiHttp(config, { clock: systemClock, logger });
  try {
    return await work(client);
  } finally {
    await client.close();
  }
}
