// The project a command runs in: the nearest trader.json above the strategy file (else above the working
// folder), written by `trader init`. It supplies defaults such as --data and the journal's folder, read relative
// to its own folder; with no project, the data default is the sample history shipped with the package, never
// the shell's folder.
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { z } from 'zod';
import { InvalidInputError } from '../../domain/errors.js';
import { INSTALLATION_ROOT } from '../../strategy/installation.js';
import { parseJsonText } from '../../domain/json-text.js';

export const PROJECT_FILE = 'trader.json';

/** The sample history shipped with the package (the S&P 500, daily, 2000–2020). */
export const BUNDLED_DATA = join(INSTALLATION_ROOT, 'backtest-data');

const projectSchema = z.strictObject({
  /** Candle CSV file or folder of SYMBOL.csv files: the default --data of backtest, run and sim. */
  data: z.string().min(1).optional(),
  /** Where `trader new strategy` writes. */
  strategies: z.string().min(1).optional(),
});

export interface Project {
  /** The folder holding trader.json. */
  readonly root: string;
  readonly file: string;
  /** Absolute paths. */
  readonly data: string;
  readonly strategies: string;
}

/** The project whose folder holds `start` (a file or folder path), looking upwards; undefined outside any. */
export async function findProject(start: string): Promise<Project | undefined> {
  let folder = resolve(start);
  for (;;) {
    const file = join(folder, PROJECT_FILE);
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text !== undefined) return await parseProject(text, file);
    const parent = dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
}

export async function parseProject(text: string, file: string): Promise<Project> {
  const parsed = projectSchema.safeParse(await parseJsonText(text, file, 'project'));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(top level)'}: ${issue.message}`);
    throw new InvalidInputError(`${file}: ${problems.join('; ')}`, 'project');
  }
  const root = dirname(file);
  return {
    root,
    file,
    data: resolve(root, parsed.data.data ?? 'data'),
    strategies: resolve(root, parsed.data.strategies ?? 'strategies'),
  };
}

/** The project of a strategy file, else of the working folder. */
export async function projectOf(strategy: string | undefined, cwd = process.cwd()): Promise<Project | undefined> {
  return (strategy === undefined ? undefined : await findProject(dirname(resolve(cwd, strategy)))) ?? (await findProject(cwd));
}

/**
 * The --data a command uses when none is given: the project's (found from the strategy file, else from the
 * working folder), else the bundled sample history. Shown relative to the working folder when inside it.
 */
export async function defaultDataPath(strategy: string | undefined, cwd = process.cwd()): Promise<string> {
  return shownFrom(cwd, (await projectOf(strategy, cwd))?.data ?? BUNDLED_DATA);
}

/** Where downloaded history goes by default: the project's data folder, else backtest-data/ of the working folder. */
export async function projectDataFolder(cwd = process.cwd()): Promise<string> {
  const project = await findProject(cwd);
  return project === undefined ? 'backtest-data' : shownFrom(cwd, project.data);
}

/** A default file such as state/journal.sqlite: in the project's folder when there is one, else in the working folder. */
export async function defaultProjectFile(strategy: string | undefined, relativePath: string, cwd = process.cwd()): Promise<string> {
  const project = await projectOf(strategy, cwd);
  return project === undefined ? relativePath : shownFrom(cwd, join(project.root, relativePath));
}

function shownFrom(cwd: string, path: string): string {
  const local = relative(cwd, path);
  return local === '' ? '.' : local.startsWith('..') || isAbsolute(local) ? path : local;
}
