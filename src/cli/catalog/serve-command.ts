// `trader catalog serve`: runs the artist catalog HTTP JSON API (a separate product in src/catalog).
import type { Argv, CommandModule } from 'yargs';
import { CredentialsError } from '../../catalog/credentials.js';
import { serveCatalog } from '../../catalog/serve.js';
import { DEFAULT_BODY_LIMIT } from '../../catalog/server.js';
import { systemClock } from '../../clock/system-clock.js';
import { InvalidInputError, listenError } from '../../domain/errors.js';
import { printJson } from '../output.js';

/** Options every `trader` command has (declared global in src/cli/main.ts). */
interface GlobalArgs {
  readonly json?: boolean | undefined;
  readonly verbose?: boolean | undefined;
}

function serveOptions(yargs: Argv<GlobalArgs>) {
  return yargs
    .option('port', { type: 'number', default: 8080, describe: 'TCP port to listen on (0 picks a free one)' })
    .option('host', { type: 'string', default: '127.0.0.1', describe: 'Address to listen on (0.0.0.0 for every interface)' })
    .option('db', { type: 'string', default: 'catalog.sqlite', describe: 'SQLite file holding the catalog (created when missing)' })
    .option('auth', {
      type: 'string',
      describe: 'JSON file {"tokens": [...], "apiKeys": [...]} with accepted credentials, added to CATALOG_TOKENS / CATALOG_API_KEYS',
    })
    .option('body-limit', { type: 'number', default: DEFAULT_BODY_LIMIT, describe: 'Largest request body in bytes (larger ones get 413)' })
    .epilogue(
      'Credentials: CATALOG_TOKENS (Authorization: Bearer <token>) and CATALOG_API_KEYS (X-API-Key: <key>), comma-separated, ' +
        'and/or --auth FILE. The server refuses to start without any. The OpenAPI document is at /api/v1/openapi.json.',
    )
    .example('CATALOG_TOKENS=s3cret $0 catalog serve --port 8080 --db catalog.sqlite', 'serve on 127.0.0.1:8080');
}

type ServeArgs = ReturnType<typeof serveOptions> extends Argv<infer T> ? T : never;

export const serveCommand: CommandModule<GlobalArgs, ServeArgs> = {
  command: 'serve',
  describe: 'Serve the artist catalog API until SIGINT/SIGTERM (then finish requests in flight and stop)',
  builder: serveOptions,
  handler: async (args) => {
    if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535)
      throw new InvalidInputError(`--port must be an integer from 0 to 65535, got ${args.port}`, 'port');
    if (!Number.isInteger(args['body-limit']) || args['body-limit'] < 1)
      throw new InvalidInputError(`--body-limit must be a positive integer, got ${args['body-limit']}`, 'body-limit');
    try {
      await serveCatalog({
        databasePath: args.db,
        host: args.host,
        port: args.port,
        authFile: args.auth,
        env: process.env,
        clock: systemClock,
        logLevel: args.verbose ? 'debug' : (process.env['LOG_LEVEL'] ?? 'info'),
        bodyLimit: args['body-limit'],
        onListening: (server) => {
          if (args.json) printJson({ url: server.url, openapi: `${server.url}/openapi.json`, database: args.db });
          else
            process.stdout.write(`catalog API listening on ${server.url} (database ${args.db}); OpenAPI at ${server.url}/openapi.json\n`);
        },
      });
    } catch (error) {
      if (error instanceof CredentialsError)
        throw new InvalidInputError(error.message, args.auth === undefined ? 'CATALOG_TOKENS' : 'auth');
      throw listenError(error, args.host, args.port, { host: '--host', port: '--port' });
    }
  },
};
