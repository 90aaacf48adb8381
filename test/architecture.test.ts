import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('architecture', () => {
  it('keeps the import rules of DESIGN.md (dependency-cruiser)', () => {
    const output = execFileSync(
      process.execPath,
      ['node_modules/dependency-cruiser/bin/dependency-cruise.mjs', 'src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'],
      {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    const result = JSON.parse(output) as {
      summary: { violations: { rule: { name: string }; from: string; to: string }[]; totalCruised: number };
    };
    expect(result.summary.totalCruised).toBeGreaterThan(10);
    expect(result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
    // Cruising ~450 modules takes seconds on a quiet machine and tens of seconds on a busy one.
  }, 120_000);
});
