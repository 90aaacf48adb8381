// A file a command will write is checked before the run: the flag, the path and why it cannot be written,
// as one line of bad input (exit status 2), instead of a failure after minutes of work.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../src/domain/errors.js';
import { checkOutputFiles, checkOutputFolder, outputFileProblem, outputFolderProblem } from '../../src/files/output-file.js';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'output-file-'));
});
afterEach(() => {
  chmodSync(folder, 0o700);
  rmSync(folder, { recursive: true, force: true });
});

describe('a file a command will write', () => {
  it('may be new in an existing folder, or an existing file (replaced)', () => {
    expect(outputFileProblem(join(folder, 'new.json'))).toBeUndefined();
    writeFileSync(join(folder, 'old.json'), '{}');
    expect(outputFileProblem(join(folder, 'old.json'))).toBeUndefined();
    // Replaced by a rename in its folder, so a read-only file in a writable folder is no obstacle.
    writeFileSync(join(folder, 'read-only.json'), '{}', { mode: 0o444 });
    expect(outputFileProblem(join(folder, 'read-only.json'))).toBeUndefined();
    expect(outputFileProblem('/dev/null')).toBeUndefined();
  });

  it('needs its folder to exist', () => {
    expect(outputFileProblem(join(folder, 'missing', 'r.json'))).toBe(`the folder ${join(folder, 'missing')} does not exist`);
  });

  it('cannot be a folder, nor sit below a file', () => {
    mkdirSync(join(folder, 'out'));
    expect(outputFileProblem(join(folder, 'out'))).toBe('is a folder: give a file name');
    writeFileSync(join(folder, 'data.csv'), 'x');
    expect(outputFileProblem(join(folder, 'data.csv', 'r.json'))).toBe(`${join(folder, 'data.csv')} is not a folder`);
    expect(outputFileProblem(join(folder, 'data.csv', 'deeper', 'r.json'))).toBe(`${join(folder, 'data.csv')} is not a folder`);
  });

  it('needs a name', () => {
    expect(outputFileProblem('')).toBe('needs a file name');
  });

  // Root may write anywhere, so the check has nothing to refuse there.
  it.skipIf(process.getuid?.() === 0)('needs a folder this user may create files in', () => {
    chmodSync(folder, 0o500);
    expect(outputFileProblem(join(folder, 'r.json'))).toBe(`cannot create files in ${folder}`);
  });

  it('is refused as bad input naming the flag, the path and why; stdout and absent flags pass', () => {
    const missing = join(folder, 'missing', 'r.html');
    expect(() =>
      checkOutputFiles([
        ['--json', '-'],
        ['--csv', undefined],
        ['--report', missing],
      ]),
    ).toThrow(new InvalidInputError(`--report ${missing}: the folder ${join(folder, 'missing')} does not exist`, '--report'));
    expect(() => checkOutputFiles([['--json', join(folder, 'r.json')]])).not.toThrow();
  });
});

describe('a folder a command will write files into', () => {
  it('may exist, or be made with its missing parents', () => {
    expect(outputFolderProblem(folder)).toBeUndefined();
    expect(outputFolderProblem(join(folder, 'new', 'deeper'))).toBeUndefined();
  });

  it('cannot be a file, nor sit below one', () => {
    writeFileSync(join(folder, 'data.csv'), 'x');
    expect(outputFolderProblem(join(folder, 'data.csv'))).toBe('is a file, not a folder');
    expect(outputFolderProblem(join(folder, 'data.csv', 'out'))).toBe(`${join(folder, 'data.csv')} is not a folder`);
    expect(outputFolderProblem('')).toBe('needs a folder name');
  });

  it.skipIf(process.getuid?.() === 0)('needs a folder this user may create folders in', () => {
    chmodSync(folder, 0o500);
    expect(outputFolderProblem(join(folder, 'out', 'deeper'))).toBe(`cannot create folders in ${folder}`);
  });

  it('is refused as bad input naming the flag; no flag, no check', () => {
    writeFileSync(join(folder, 'data.csv'), 'x');
    expect(() => checkOutputFolder('--out', join(folder, 'data.csv'))).toThrow(
      `--out ${join(folder, 'data.csv')}: is a file, not a folder`,
    );
    expect(() => checkOutputFolder('--out', undefined)).not.toThrow();
  });
});

describe('an output and what the run reads', () => {
  it("may not be one of the run's inputs, nor a candle file in its data folder, nor named by two flags", () => {
    mkdirSync(join(folder, 'data'));
    writeFileSync(join(folder, 'data', 'SPY.US.csv'), 'date,open,high,low,close,volume\n');
    writeFileSync(join(folder, 'strategy.ts'), '');
    const inputs = [
      ['the strategy file', join(folder, 'strategy.ts')],
      ['the data', join(folder, 'data')],
      ['the risk config', undefined],
    ] as const;
    const check = (flag: string, path: string) => () => checkOutputFiles([[flag, path]], inputs);
    expect(check('--json', join(folder, 'strategy.ts'))).toThrow(
      `--json ${join(folder, 'strategy.ts')}: is the strategy file, which this run reads`,
    );
    expect(check('--csv', join(folder, 'data', 'SPY.US.csv'))).toThrow(
      `--csv ${join(folder, 'data', 'SPY.US.csv')}: is in the folder of the data (${join(folder, 'data')}), where a .csv or .parquet file is read as candles`,
    );
    expect(check('--csv', join(folder, 'data', 'ranked.CSV'))).toThrow('where a .csv or .parquet file is read as candles');
    expect(check('--json', join(folder, 'data', 'result.json'))).not.toThrow();
    expect(() =>
      checkOutputFiles([['--json', join(folder, 'data', 'SPY.US.csv')]], [['the data', join(folder, 'data', 'SPY.US.csv')]]),
    ).toThrow('is the data, which this run reads');
    expect(() =>
      checkOutputFiles([
        ['--json', join(folder, 'out.json')],
        ['--report', join(folder, '.', 'out.json')],
      ]),
    ).toThrow(`--report ${join(folder, '.', 'out.json')}: --json names the same file`);
  });

  it('is told apart from an input through a symbolic link', () => {
    writeFileSync(join(folder, 'strategy.ts'), '');
    symlinkSync(join(folder, 'strategy.ts'), join(folder, 'link.ts'));
    expect(() => checkOutputFiles([['--json', join(folder, 'link.ts')]], [['the strategy file', join(folder, 'strategy.ts')]])).toThrow(
      'is the strategy file, which this run reads',
    );
  });
});
