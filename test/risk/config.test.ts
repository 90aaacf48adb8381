import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../src/domain/index.js';
import { loadRiskConfig, parseRiskConfig } from '../../src/risk/index.js';

let folder: string;

describe('risk config', () => {
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'risk-config-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('reads every limit, numbers and decimal strings alike', () => {
    const limits = parseRiskConfig({
      maxOrderNotional: '50000.5',
      maxPositionPerSymbol: 1000,
      maxOrdersPerMinute: 10,
      allowedSymbols: ['0700.HK', 'aapl.us'],
      allowedSessions: ['regular', { begin: '09:45', end: '15:30' }],
      dailyLossLimit: 2000,
      maxDrawdown: 0.15,
    });

    expect(limits.maxOrderNotional?.toFixed()).toBe('50000.5');
    expect(limits.maxPositionPerSymbol?.toFixed()).toBe('1000');
    expect(limits.maxDrawdown?.toFixed()).toBe('0.15');
    expect(limits).toMatchObject({
      maxOrdersPerMinute: 10,
      allowedSymbols: ['700.HK', 'AAPL.US'],
      allowedSessions: ['regular', { begin: 945, end: 1530 }],
    });
  });

  it('leaves out what is not configured', () => {
    expect(parseRiskConfig({})).toEqual({});
  });

  it('reports every problem at once with its path, unknown keys included', () => {
    const error = (() => {
      try {
        parseRiskConfig(
          {
            maxOrderNotional: -5,
            allowedSymbols: ['AAPL.US', 'nonsense'],
            allowedSessions: [{ begin: '9:45', end: '15:30' }],
            maxDrawdown: 20,
            maxNotional: 1,
          },
          'risk.json',
        );
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();

    expect(error).toBeInstanceOf(InvalidInputError);
    const message = (error as Error).message;
    expect(message.startsWith('risk.json: ')).toBe(true);
    expect(message).toContain('maxOrderNotional: must be a positive number, got -5');
    expect(message).toContain('allowedSymbols.1: symbol "nonsense" must look like CODE.MARKET');
    expect(message).toContain('allowedSessions.0.begin: must be HH:MM (24-hour local market time)');
    expect(message).toContain('maxDrawdown: must be a fraction below 1 (0.2 = 20 %)');
    expect(message).toContain('Unrecognized key: "maxNotional"');
    expect(message).not.toContain('\n');
  });

  it('loads a file and names it in errors', async () => {
    const good = join(folder, 'risk.json');
    await writeFile(good, JSON.stringify({ maxOrdersPerMinute: 5 }));
    const bad = join(folder, 'bad.json');
    await writeFile(bad, '{ "maxOrdersPerMinute": ');

    expect(await loadRiskConfig(good)).toEqual({ maxOrdersPerMinute: 5 });
    await expect(loadRiskConfig(bad)).rejects.toThrow(`${bad}:1:25: not valid JSON (value expected)`);
    // Where the fault is, by line and column.
    const misplaced = join(folder, 'misplaced.json');
    await writeFile(misplaced, '{\n  "maxOrdersPerMinute": 5,\n  "maxPositionPerSymbol": }\n');
    await expect(loadRiskConfig(misplaced)).rejects.toThrow(`${misplaced}:3:27: not valid JSON (value expected)`);
    await expect(loadRiskConfig(join(folder, 'missing.json'))).rejects.toThrow(/missing\.json: cannot read the risk config \(ENOENT\)/);
  });
});
