// `trader init DIR`: creates a user project that depends on longport-trader (package.json, tsconfig, an example
// strategy, the sample history, risk.json, schedule.yaml, .gitignore, README, trader.json).
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { InvalidInputError } from '../../domain/errors.js';
import { printJson } from '../output.js';
import { EXAMPLE_STRATEGY, projectFiles } from './scaffold.js';
import { parseTemplate, templateChoices } from './templates.js';

interface InitArgs {
  readonly dir: string;
  readonly template: string;
  readonly json?: boolean | undefined;
}

export const initCommand: CommandModule<object, InitArgs> = {
  command: 'init <dir>',
  describe: 'Create a strategy project in DIR: package.json, tsconfig, an example strategy, sample data, risk and schedule files',
  builder: (yargs) =>
    (yargs as Argv<object>)
      .positional('dir', {
        type: 'string',
        demandOption: true,
        describe: 'Folder of the new project (created; must be empty if it exists)',
      })
      .option('template', {
        type: 'string',
        default: 'sma',
        describe: `The example strategy: ${templateChoices()}`,
      })
      .example('$0 init my-bot', 'A project with the SMA crossover example')
      .example(
        '$0 init my-bot --template rsi && cd my-bot && npm install && npx trader backtest strategies/example.ts',
        'Create, install, backtest',
      )
      .epilogue(
        'Then, in DIR: npm install, npx trader backtest strategies/example.ts, npx tsc --noEmit, npx trader run ' +
          'strategies/example.ts (paper), npx trader schedule schedule.yaml. trader.json holds the project defaults (data folder, ' +
          'strategies folder), so commands find data/ from any folder of the project.',
      ) as Argv<InitArgs>,
  handler: async (args) => {
    const template = parseTemplate(args.template);
    // resolve('') is the working folder: a blank name was then refused as " is not empty".
    if (String(args.dir).trim() === '') throw new InvalidInputError('DIR: name the folder of the new project (. for this one)', 'dir');
    const folder = resolve(args.dir);
    const existing = await readdir(folder).catch(() => undefined);
    if (existing !== undefined && existing.length > 0)
      throw new InvalidInputError(
        `${args.dir} is not empty (${existing.slice(0, 3).join(', ')}${existing.length > 3 ? ', …' : ''}); choose a new folder`,
        'dir',
      );
    const files = await projectFiles(folder, template);
    for (const file of files) {
      const target = join(folder, file.path);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, file.content, { flag: 'wx' });
    }
    if (args.json) {
      printJson({ project: folder, template, files: files.map((file) => file.path) });
      return;
    }
    const local = relative(process.cwd(), folder);
    const shown = local === '' ? '.' : local.startsWith('..') ? folder : local;
    process.stdout.write(
      `created ${shown} (${template} template): ${files.map((file) => file.path).join(', ')}\n\n` +
        `next:\n  cd ${shown}\n  npm install\n  npx trader backtest ${EXAMPLE_STRATEGY}\n`,
    );
  },
};
