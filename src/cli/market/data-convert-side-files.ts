// What `trader data convert` writes beside the Parquet files so that they backtest as the CSV files did: the
// input folders' securities.csv and actions.csv (not candle files: copied, merged with any already in the
// output folder), and the dividends and splits of the CSV files' `Dividends` and `Stock Splits` columns,
// which Parquet files do not carry, added to the output folder's actions.csv.
import { readFile, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { CorporateAction } from '../../domain/corporate-action.js';
import { InvalidInputError } from '../../domain/errors.js';
import { withActions } from '../../feeds/history/actions-file-writer.js';
import { ACTIONS_FILE, parseActionsFile } from '../../feeds/history/corporate-actions-file.js';
import { formatSecurities, parseSecurities, SECURITIES_FILE } from '../../feeds/history/securities-file.js';

/** Whether a file of a data folder is one of its side files rather than a candle file. */
export function isSideFile(path: string): boolean {
  const name = basename(path).toLowerCase();
  return name === SECURITIES_FILE || name === ACTIONS_FILE;
}

/** One converted file: where it came from and went, and the actions of its columns. */
export interface SideFileSource {
  readonly input: string;
  readonly output: string;
  readonly actions: readonly CorporateAction[];
}

/** A side file to write: its whole new text, the input folders' side files merged in, the column actions added. */
export interface SideFileWrite {
  readonly file: string;
  readonly text: string;
  readonly copied: readonly string[];
  /** Whether the copied files were merged (with each other or the output's) rather than one copied as it was. */
  readonly merged: boolean;
  readonly addedActions: number;
}

/** Reads and checks everything a write needs, so a bad side file or action stops the run before any output. */
export async function planSideFiles(sources: readonly SideFileSource[]): Promise<SideFileWrite[]> {
  // Keyed by absolute path: each output folder once, with each input folder once (unless it is the output).
  const folders = new Map<string, { out: string; inputs: Map<string, string>; actions: CorporateAction[] }>();
  for (const { input, output, actions } of sources) {
    const out = dirname(output);
    const folder = folders.get(resolve(out)) ?? { out, inputs: new Map<string, string>(), actions: [] };
    folders.set(resolve(out), folder);
    if (resolve(dirname(input)) !== resolve(out)) folder.inputs.set(resolve(dirname(input)), dirname(input));
    folder.actions.push(...actions);
  }
  const writes: SideFileWrite[] = [];
  for (const { out, inputs, actions } of folders.values()) {
    const securities = await securitiesWrite(out, [...inputs.values()]);
    const actionsFile = await actionsWrite(out, [...inputs.values()], actions);
    writes.push(...[securities, actionsFile].filter((write) => write !== undefined));
  }
  return writes;
}

/** Written under a temporary name and renamed, as the Parquet files are. */
export async function writeSideFile(write: SideFileWrite): Promise<void> {
  await writeFile(`${write.file}.partial`, write.text);
  await rename(`${write.file}.partial`, write.file);
}

async function securitiesWrite(out: string, inputs: readonly string[]): Promise<SideFileWrite | undefined> {
  const file = join(out, SECURITIES_FILE);
  const existing = await textOf(file);
  const copied = await sideFilesOf(inputs, SECURITIES_FILE);
  const texts = [...(existing === undefined ? [] : [{ file, text: existing }]), ...copied];
  if (copied.length === 0) return undefined;
  // One text is copied as it is; different ones are merged row by row, an input's row replacing the output's.
  const text = texts.every((one) => one.text === texts[0]!.text)
    ? texts[0]!.text
    : formatSecurities(Object.assign({}, ...texts.map((one) => parseSecurities(one.text, one.file))));
  if (text === existing) return undefined;
  return { file, text, copied: copied.map((one) => one.file), merged: text !== copied[0]!.text, addedActions: 0 };
}

async function actionsWrite(
  out: string,
  inputs: readonly string[],
  columns: readonly CorporateAction[],
): Promise<SideFileWrite | undefined> {
  const file = join(out, ACTIONS_FILE);
  for (const action of columns)
    if (!/^\d{4}-\d{2}-\d{2}$/.test(action.exDate))
      throw new InvalidInputError(
        `${action.symbol}: a ${action.kind} on "${action.exDate}": ${ACTIONS_FILE} takes YYYY-MM-DD dates; write the candle file's dates as such`,
        'input',
      );
  const existing = await textOf(file);
  const copied = await sideFilesOf(inputs, ACTIONS_FILE);
  // Without a file of its own, the output folder starts from the first input's, unchanged.
  const [first, ...rest] = existing === undefined ? copied : [{ file, text: existing }, ...copied];
  const base = withActions(
    first?.text,
    rest.flatMap((one) => parseActionsFile(one.text, one.file)),
    first?.file ?? file,
  );
  const { text, added } = withActions(base.text, columns, file);
  if (text === existing || (first === undefined && added.length === 0)) return undefined;
  // Copied as it was, with the columns' actions after it, unless other actions files were merged in.
  const merged = copied.length > 0 && (existing !== undefined || copied.length > 1);
  return { file, text, copied: copied.map((one) => one.file), merged, addedActions: added.length };
}

async function sideFilesOf(folders: readonly string[], name: string): Promise<{ file: string; text: string }[]> {
  const found: { file: string; text: string }[] = [];
  for (const folder of folders) {
    const text = await textOf(join(folder, name));
    if (text !== undefined) found.push({ file: join(folder, name), text });
  }
  return found;
}

async function textOf(file: string): Promise<string | undefined> {
  return readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
}
