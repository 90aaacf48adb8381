// `trader --help` as a user sees it from the binary: every command listed, descriptions wrapped between words.
import { describe, expect, it } from 'vitest';
import { runTrader } from '../support/http/run-trader.js';

describe('trader --help', () => {
  it('lists the main commands and wraps descriptions only between words', async () => {
    const run = await runTrader(['--help'], {});
    expect(run.code).toBe(0);
    for (const command of ['backtest <strategy>', 'run <strategy>', 'schedule <config>', 'status', 'sim', 'catalog']) {
      expect(run.stdout).toContain(`trader ${command}`);
    }
    expect(run.stdout).toContain('backtest, paper and live trading, scheduling.');
    // A description wrapped over several lines reads whole once the lines are joined again.
    const joined = run.stdout
      .split('\n')
      .map((line) => line.trim())
      .join(' ');
    expect(joined).toContain('Run a strategy over candle history (the same strategy, risk and executor code as `trader run`)');
    expect(joined).toContain('Run a strategy: paper trading against the built-in simulator (default), or live with --live --yes');
  });
});
