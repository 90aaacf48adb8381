import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BUNDLED_DATA,
  defaultDataPath,
  defaultProjectFile,
  findProject,
  parseProject,
  projectDataFolder,
} from '../../../src/cli/project/config.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
let folder: string;

describe('project config (trader.json)', () => {
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'project-config-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('is found from any folder below it, with its paths read relative to its own folder', async () => {
    await writeFile(join(folder, 'trader.json'), JSON.stringify({ data: 'history/daily', strategies: 'src/strategies' }));
    await mkdir(join(folder, 'src', 'strategies'), { recursive: true });

    const project = await findProject(join(folder, 'src', 'strategies'));

    expect(project).toEqual({
      root: folder,
      file: join(folder, 'trader.json'),
      data: join(folder, 'history', 'daily'),
      strategies: join(folder, 'src', 'strategies'),
    });
  });

  it('defaults data/ and strategies/ beside it', async () => {
    expect(await parseProject('{}', join(folder, 'trader.json'))).toMatchObject({
      data: join(folder, 'data'),
      strategies: join(folder, 'strategies'),
    });
  });

  it('refuses unknown keys and wrong types at once, naming the file', async () => {
    const file = join(folder, 'trader.json');

    await expect(parseProject('{"data": 5, "dta": "x"}', file)).rejects.toThrow(new RegExp(`^${file}: data: .*; \\(top level\\): .*dta`));
    await expect(parseProject('{"data": ', file)).rejects.toThrow(`${file}:1:10: not valid JSON (value expected)`);
    await expect(parseProject('{"data": "x",}', file)).rejects.toThrow(`${file}:1:14: not valid JSON (property name expected)`);
  });

  it("gives --data from the strategy's project, wherever the command runs from", async () => {
    await writeFile(join(folder, 'trader.json'), '{"data": "candles"}');
    await mkdir(join(folder, 'strategies'));
    const elsewhere = await mkdtemp(join(tmpdir(), 'project-cwd-'));
    try {
      expect(await defaultDataPath(join(folder, 'strategies', 'mine.ts'), elsewhere)).toBe(join(folder, 'candles'));
      expect(await defaultDataPath('mine.ts', join(folder, 'strategies'))).toBe(join(folder, 'candles'));
      expect(await defaultDataPath('strategies/mine.ts', folder)).toBe('candles');
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  it("falls back to the working folder's project for a strategy outside any, then to the bundled sample history", async () => {
    await writeFile(join(folder, 'trader.json'), '{}');
    const outside = await mkdtemp(join(tmpdir(), 'project-outside-'));
    try {
      expect(await defaultDataPath(join(outside, 'loose.ts'), folder)).toBe('data');
      expect(await defaultDataPath(join(outside, 'loose.ts'), outside)).toBe(BUNDLED_DATA);
      expect(BUNDLED_DATA).toBe(join(REPO, 'backtest-data'));
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it("puts default files such as the journal in the project's folder, else in the working folder", async () => {
    await writeFile(join(folder, 'trader.json'), '{}');
    await mkdir(join(folder, 'strategies'));

    expect(await defaultProjectFile('mine.ts', 'state/journal.sqlite', join(folder, 'strategies'))).toBe(
      join(folder, 'state', 'journal.sqlite'),
    );
    expect(await defaultProjectFile('strategies/mine.ts', 'state/journal.sqlite', folder)).toBe(join('state', 'journal.sqlite'));
    expect(await defaultProjectFile(join(tmpdir(), 'x.ts'), 'state/journal.sqlite', tmpdir())).toBe('state/journal.sqlite');
  });

  it("downloads history into the project's data folder, else into backtest-data/ of the working folder", async () => {
    await writeFile(join(folder, 'trader.json'), '{"data": "history"}');
    await mkdir(join(folder, 'notes'));

    expect(await projectDataFolder(join(folder, 'notes'))).toBe(join(folder, 'history'));
    expect(await projectDataFolder(folder)).toBe('history');
    expect(await projectDataFolder(tmpdir())).toBe('backtest-data');
  });
});
