// `trader new strategy NAME`: adds strategies/NAME.ts to the project (its trader.json's strategies folder, or
// ./strategies outside a project) from a template.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { InvalidInputError } from '../../domain/errors.js';
import { printJson } from '../output.js';
import { findProject } from './config.js';
import { parseStrategyName, parseTemplate, strategySource, TEMPLATE_PACKAGES, type Template, templateChoices } from './templates.js';

interface NewArgs {
  readonly kind: string;
  readonly name: string;
  readonly template: string;
  readonly json?: boolean | undefined;
}

/** The packages `template` imports that the project's package.json lists in neither of its dependency lists. */
async function missingPackages(root: string, template: Template): Promise<string[]> {
  const manifest = await readFile(join(root, 'package.json'), 'utf8').then(
    (text) => JSON.parse(text) as { dependencies?: object; devDependencies?: object },
    () => undefined,
  );
  if (manifest === undefined) return [];
  const listed = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})]);
  return TEMPLATE_PACKAGES[template].filter((name) => !listed.has(name));
}

export const newCommand: CommandModule<object, NewArgs> = {
  command: 'new <kind> <name>',
  describe: 'Add a file to the project: `trader new strategy NAME` writes strategies/NAME.ts from a template',
  builder: (yargs) =>
    (yargs as Argv<object>)
      .positional('kind', { type: 'string', demandOption: true, choices: ['strategy'], describe: 'What to add' })
      .positional('name', { type: 'string', demandOption: true, describe: 'Its name: letters, digits, "-" and "_"' })
      .option('template', {
        type: 'string',
        default: 'blank',
        describe: `Start from: ${templateChoices()}`,
      })
      .example('$0 new strategy momentum', 'strategies/momentum.ts, a blank callback strategy')
      .example('$0 new strategy mean-revert --template rsi', 'A copy of the RSI mean-reversion example named mean-revert') as Argv<NewArgs>,
  handler: async (args) => {
    const name = parseStrategyName(args.name);
    const template = parseTemplate(args.template);
    const project = await findProject(process.cwd());
    const folder = project?.strategies ?? join(process.cwd(), 'strategies');
    const file = join(folder, `${name}.ts`);
    await mkdir(folder, { recursive: true });
    try {
      await writeFile(file, await strategySource(template, name), { flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST')
        throw new InvalidInputError(`${relative(process.cwd(), file)} already exists; choose another name`, 'name');
      throw error;
    }
    const shown = relative(process.cwd(), file);
    const missing = await missingPackages(project?.root ?? process.cwd(), template);
    if (args.json) printJson({ file, template, missingPackages: missing });
    else {
      process.stdout.write(`created ${shown} (${template} template); try: npx trader backtest ${shown}\n`);
      // A project made from another template does not list what this one imports: runs take longport-trader's
      // own copy, but tsc and editors find no types.
      if (missing.length > 0)
        process.stdout.write(
          `it imports ${missing.join(', ')}, which package.json does not list: runs use the copy longport-trader brings; for tsc and your editor, npm install ${missing.join(' ')}\n`,
        );
    }
  },
};
