// `trader watchlist` and `trader securities`: the account's watchlist groups and the service's security list.
import type { CommandModule } from 'yargs';
import { MARKETS } from '../../domain/symbol.js';
import { SECURITY_LANGUAGES } from '../../openapi/http/types.js';
import { printTable } from '../output.js';
import { choiceFlag } from './flags.js';
import { decimal, line, present, time } from './present.js';
import { withOpenApi, type GlobalFlags } from './session.js';

export const watchlistCommand: CommandModule<object, GlobalFlags> = {
  command: 'watchlist',
  describe: 'List the watchlist groups and their securities',
  builder: (yargs) => yargs.example('$0 watchlist', 'Every group').example('$0 watchlist --json', 'As JSON'),
  handler: async (args) => {
    const groups = await withOpenApi(args, (client) => client.watchlist());
    present(args, groups, () => {
      if (groups.length === 0) return line('no watchlist groups');
      printTable(
        ['GROUP', 'GROUP ID', 'SYMBOL', 'NAME', 'WATCHED PRICE', 'WATCHED AT'],
        groups.flatMap((group) =>
          group.securities.length === 0
            ? [[group.name, group.id, '', '', '', '']]
            : group.securities.map((security) => [
                group.name,
                group.id,
                security.symbol,
                security.name,
                decimal(security.watchedPrice),
                time(security.watchedAt),
              ]),
        ),
      );
    });
  },
};

interface SecuritiesArgs extends GlobalFlags {
  readonly market: string;
  readonly lang?: string;
  readonly category?: string;
}

export const securitiesCommand: CommandModule<object, SecuritiesArgs> = {
  command: 'securities',
  describe: 'List the securities of a market the service offers (names in one language)',
  builder: (yargs) =>
    yargs
      .option('market', { type: 'string', demandOption: true, describe: `Market: ${MARKETS.join(', ')} (the service documents US)` })
      .option('lang', { type: 'string', default: 'en', describe: `Language of the names: ${SECURITY_LANGUAGES.join(', ')}` })
      .option('category', {
        type: 'string',
        default: 'Overnight',
        describe: 'Category within the market (the service documents Overnight)',
      })
      .example('$0 securities --market US', 'US securities tradable overnight')
      .example('$0 securities --market US --lang zh-HK', 'With Traditional Chinese names'),
  handler: async (args) => {
    const query = {
      market: choiceFlag(MARKETS, args.market, '--market'),
      language: choiceFlag(SECURITY_LANGUAGES, args.lang ?? 'en', '--lang'),
      ...(args.category === undefined ? {} : { category: args.category }),
    };
    const list = await withOpenApi(args, (client) => client.securities(query));
    present(args, list, () =>
      list.length === 0
        ? line('no securities')
        : printTable(
            ['SYMBOL', 'NAME'],
            list.map((row) => [row.symbol, row.name]),
          ),
    );
  },
};
