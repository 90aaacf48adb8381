// `trader api`: any OpenAPI path as one signed request (like the SDK's HttpClient.request), printing the
// envelope's data as JSON: for calls `trader` has no command of its own.
import type { CommandModule } from 'yargs';
import { InvalidInputError } from '../../domain/errors.js';
import { printJson } from '../output.js';
import { choiceFlag } from './flags.js';
import { withOpenApi, type GlobalFlags } from './session.js';

const METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;

interface ApiArgs extends GlobalFlags {
  readonly method: string;
  readonly path: string;
  readonly body?: string;
  readonly header?: readonly string[];
}

function bodyFlag(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InvalidInputError(`--body: not JSON (${(error as Error).message})`, '--body');
  }
}

function headerFlags(values: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    values.map((value) => {
      const colon = String(value).indexOf(':');
      if (colon <= 0) throw new InvalidInputError(`--header: "${value}" is not NAME: VALUE`, '--header');
      return [
        String(value).slice(0, colon).trim().toLowerCase(),
        String(value)
          .slice(colon + 1)
          .trim(),
      ];
    }),
  );
}

export const apiCommand: CommandModule<object, ApiArgs> = {
  command: 'api <method> <path>',
  describe: 'Send one signed request to any OpenAPI path and print the data it answers (JSON)',
  builder: (yargs) =>
    yargs
      .positional('method', { type: 'string', demandOption: true, describe: `HTTP method: ${METHODS.join(', ')}` })
      .positional('path', {
        type: 'string',
        demandOption: true,
        describe: 'Path with its query string, e.g. /v1/asset/account?currency=HKD',
      })
      .option('body', { type: 'string', describe: 'JSON body (POST, PUT)' })
      .option('header', { type: 'string', array: true, describe: 'Extra header "NAME: VALUE" (repeatable)' })
      .example('$0 api GET "/v1/quote/market_temperature?market=HK"', 'Market temperature, raw')
      .example('$0 api POST /v1/watchlist/groups --body \'{"name":"tech","securities":["AAPL.US"]}\'', 'Create a watchlist group'),
  handler: async (args) => {
    const method = choiceFlag(METHODS, args.method, 'METHOD');
    const path = String(args.path);
    if (!path.startsWith('/')) throw new InvalidInputError(`PATH: "${path}" must start with / (e.g. /v1/asset/account)`, 'PATH');
    const request = {
      method,
      path,
      ...(args.body === undefined ? {} : { body: bodyFlag(args.body) }),
      ...(args.header === undefined ? {} : { headers: headerFlags(args.header) }),
    };
    printJson(await withOpenApi(args, (client) => client.request(request)));
  },
};
