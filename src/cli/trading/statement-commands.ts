// `trader statements list|download`: daily and monthly account statements.
import type { CommandModule } from 'yargs';
import { STATEMENT_TYPES, type StatementType } from '../../openapi/http/types.js';
import { printTable } from '../output.js';
import { choiceFlag, countFlag, textFlag } from './flags.js';
import { line, present } from './present.js';
import { withOpenApi, type GlobalFlags } from './session.js';

const TYPES = Object.keys(STATEMENT_TYPES) as StatementType[];

/** An example that pastes as is (a `<FILE_KEY>` placeholder read as a shell redirection). */
const NEWEST_DOWNLOAD = `$0 statements download "$($0 statements list --json | jq -r '.[0].fileKey')"`;

interface ListArgs extends GlobalFlags {
  readonly type: string;
  readonly page?: number;
  readonly pageSize?: number;
}

const list: CommandModule<object, ListArgs> = {
  command: 'list',
  describe: 'List available statements (newest first, one page at a time)',
  builder: (yargs) =>
    yargs
      .option('type', { type: 'string', default: 'daily', describe: `Statement type: ${TYPES.join(', ')}` })
      .option('page', { type: 'number', describe: 'Page number, from 1' })
      .option('page-size', { type: 'number', describe: 'Statements per page (default 20)' })
      .example('$0 statements list', 'Recent daily statements')
      .example('$0 statements list --type monthly --page 2', 'Older monthly statements'),
  handler: async (args) => {
    const query = {
      type: choiceFlag(TYPES, args.type, '--type'),
      ...(args.page === undefined ? {} : { page: countFlag(args.page, '--page')! }),
      ...(args.pageSize === undefined ? {} : { pageSize: countFlag(args.pageSize, '--page-size')! }),
    };
    const statements = await withOpenApi(args, (client) => client.statements(query));
    present(args, statements, () =>
      statements.length === 0
        ? line('no statements')
        : printTable(
            ['DATE', 'FILE KEY'],
            statements.map((row) => [row.date, row.fileKey]),
          ),
    );
  },
};

interface DownloadArgs extends GlobalFlags {
  readonly fileKey: string;
}

const download: CommandModule<object, DownloadArgs> = {
  command: 'download <fileKey>',
  describe: 'Print a (short-lived) download URL for a statement',
  builder: (yargs) =>
    yargs
      .positional('fileKey', { type: 'string', demandOption: true, describe: 'FILE_KEY from `trader statements list`' })
      .example(NEWEST_DOWNLOAD, 'The download URL of the newest daily statement'),
  handler: async (args) => {
    const fileKey = textFlag(args.fileKey, 'FILE_KEY');
    const result = await withOpenApi(args, (client) => client.statementDownloadUrl(fileKey));
    present(args, result, () => line(result.url));
  },
};

export const statementsCommand: CommandModule = {
  command: 'statements <action>',
  describe: 'List account statements or get the download URL of one',
  builder: (yargs) =>
    yargs
      .command(list)
      .command(download)
      .demandCommand(1, 'Name an action: list or download.')
      .example('$0 statements list --type monthly', 'Recent monthly statements and their file keys')
      .example(NEWEST_DOWNLOAD, 'The download URL of the newest daily statement'),
  handler: () => undefined,
};
