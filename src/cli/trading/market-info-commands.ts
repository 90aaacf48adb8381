// `trader watchlist [list|create|update|delete]` and `trader securities`: the account's watchlist groups and the
// service's security list.
import type { CommandModule } from 'yargs';
import { InvalidInputError } from '../../domain/errors.js';
import { MARKETS } from '../../domain/symbol.js';
import { SECURITY_LANGUAGES } from '../../openapi/http/types.js';
import { printTable } from '../output.js';
import { choiceFlag, symbolFlag, textFlag } from './flags.js';
import { decimal, line, present, time } from './present.js';
import { withOpenApi, type GlobalFlags } from './session.js';

const listWatchlist: CommandModule<object, GlobalFlags> = {
  command: ['list', '$0'],
  describe: 'List the watchlist groups and their securities (the default)',
  builder: (yargs) => yargs.example('$0 watchlist', 'Every group and its securities').example('$0 watchlist --json', 'As JSON'),
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

const symbolsOf = (values: readonly string[] | undefined, flag: string): string[] | undefined =>
  values === undefined
    ? undefined
    : values
        .flatMap((value) => String(value).split(','))
        .filter((text) => text.trim() !== '')
        .map((text) => symbolFlag(text, flag));

interface CreateArgs extends GlobalFlags {
  readonly name: string;
  readonly symbols?: readonly string[];
}

const createGroup: CommandModule<object, CreateArgs> = {
  command: 'create',
  describe: 'Create a watchlist group, optionally with securities',
  builder: (yargs) =>
    yargs
      .option('name', { type: 'string', nargs: 1, demandOption: true, describe: 'Name of the group' })
      .option('symbols', { type: 'string', array: true, describe: 'Securities to put in it (comma-separated or repeated)' })
      .example('$0 watchlist create --name tech --symbols AAPL.US,700.HK', 'A group of two'),
  handler: async (args) => {
    const symbols = symbolsOf(args.symbols, '--symbols');
    const group = { name: textFlag(args.name, '--name'), ...(symbols === undefined ? {} : { securities: symbols }) };
    const created = await withOpenApi(args, (client) => client.createWatchlistGroup(group));
    present(args, created, () => line(`created watchlist group ${created.id}`));
  },
};

interface UpdateArgs extends GlobalFlags {
  readonly id: string;
  readonly name?: string;
  readonly add?: readonly string[];
  readonly remove?: readonly string[];
  readonly replace?: readonly string[];
}

const updateGroup: CommandModule<object, UpdateArgs> = {
  command: 'update <id>',
  describe: 'Rename a watchlist group, or add, remove or replace its securities',
  builder: (yargs) =>
    yargs
      .positional('id', { type: 'string', demandOption: true, describe: 'Group id (`trader watchlist` shows them)' })
      .option('name', { type: 'string', nargs: 1, describe: 'New name' })
      .option('add', { type: 'string', array: true, describe: 'Securities to add' })
      .option('remove', { type: 'string', array: true, describe: 'Securities to remove' })
      .option('replace', { type: 'string', array: true, describe: 'Securities that make up the group from now on' })
      .example('$0 watchlist update 2 --add TSLA.US', 'Add one security')
      .example('$0 watchlist update 2 --name megacaps --replace AAPL.US,MSFT.US', 'Rename and set the securities'),
  handler: async (args) => {
    const id = groupIdFlag(args.id);
    const changes = (['add', 'remove', 'replace'] as const).filter((mode) => args[mode] !== undefined);
    if (changes.length > 1)
      throw new InvalidInputError(`give one of --add, --remove and --replace (got --${changes.join(', --')})`, `--${changes[1]}`);
    const mode = changes[0];
    if (mode === undefined && args.name === undefined)
      throw new InvalidInputError('nothing to change: give --name, --add, --remove or --replace', '--name');
    const update = {
      id,
      ...(args.name === undefined ? {} : { name: textFlag(args.name, '--name') }),
      ...(mode === undefined ? {} : { securities: symbolsOf(args[mode], `--${mode}`)!, mode }),
    };
    await withOpenApi(args, (client) => client.updateWatchlistGroup(update));
    present(args, { id, updated: true }, () => line(`updated watchlist group ${id}`));
  },
};

interface DeleteArgs extends GlobalFlags {
  readonly id: string;
  readonly purge?: boolean;
}

const deleteGroup: CommandModule<object, DeleteArgs> = {
  command: 'delete <id>',
  describe: 'Delete a watchlist group; with --purge also unfollow its securities (otherwise they stay in "All")',
  builder: (yargs) =>
    yargs
      .positional('id', { type: 'string', demandOption: true, describe: 'Group id' })
      .option('purge', { type: 'boolean', describe: 'Also unfollow the securities of the group' })
      .example('$0 watchlist delete 2', 'Delete the group, keep following its securities')
      .example('$0 watchlist delete 2 --purge', 'Delete it and unfollow its securities'),
  handler: async (args) => {
    const id = groupIdFlag(args.id);
    await withOpenApi(args, (client) => client.deleteWatchlistGroup(id, args.purge === true));
    present(args, { id, deleted: true }, () => line(`deleted watchlist group ${id}`));
  },
};

function groupIdFlag(text: string): string {
  const id = String(text).trim();
  if (!/^\d+$/.test(id)) throw new InvalidInputError(`ID: "${text}" is not a watchlist group id (a whole number)`, 'ID');
  return id;
}

export const watchlistCommand: CommandModule = {
  command: 'watchlist [action]',
  describe: 'List the watchlist groups, or create, update or delete one',
  builder: (yargs) =>
    yargs
      .command(listWatchlist)
      .command(createGroup)
      .command(updateGroup)
      .command(deleteGroup)
      // `trader watchlist --help` shows these after those of the default action (list).
      .example('$0 watchlist create --name tech --symbols AAPL.US', 'A new group'),
  handler: () => undefined,
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
