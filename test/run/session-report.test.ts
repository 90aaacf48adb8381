import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.js';
import { defineStrategy } from '../../src/strategy/define.js';
import { prepareStrategy } from '../../src/strategy/prepare.js';
import { AAPL, wavingDays } from '../support/run/candles.js';
import { controlledStrategy } from '../support/run/controlled-strategy.js';
import { removeTempFolders, startPaperHarness, type PaperHarness } from '../support/run/paper-harness.js';

let harness: PaperHarness | undefined;

afterEach(async () => {
  await harness?.stop();
  harness = undefined;
  await removeTempFolders();
});

interface LogLine {
  readonly msg: string;
  readonly [field: string]: unknown;
}

function recordingLogger(): { logger: ReturnType<typeof createLogger>; lines: LogLine[] } {
  const lines: LogLine[] = [];
  return {
    logger: createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) } }),
    lines,
  };
}

describe('what a session reports as it runs', () => {
  it('says it is running once reconciled, with the quotes it holds, then logs positions and PnL each interval something happened', async () => {
    const { logger, lines } = recordingLogger();
    const control = controlledStrategy(AAPL);
    harness = await startPaperHarness({ strategies: [control.strategy], candles: [wavingDays(10)], logger, statusEveryMs: 60_000 });
    const h = harness;
    await h.step();
    control.emit((ctx) => ctx.buy(10));
    await h.settle();
    await h.step();

    await h.clock.advanceByAsync(60_000);
    await h.clock.advanceByAsync(60_000);

    expect(lines.find((line) => line.msg.startsWith('running:'))?.msg).toBe(
      'running: journal and broker reconciled (0 open order(s) of ours, 0 position(s)); quotes of AAPL.US subscribed',
    );
    const status = lines.filter((line) => line.msg.startsWith('status:'));
    expect(status).toHaveLength(1);
    expect(status[0]).toMatchObject({ orders: 1, fills: 1, positions: ['AAPL.US 10'], marketTime: expect.stringMatching(/^2024-01-0/) });
    expect(status[0]!.msg).toMatch(/^status: 1 order\(s\), 1 fill\(s\), 0 denial\(s\); PnL USD 0\.00 realized, -?\d+\.\d\d unrealized$/);
  });

  it('ends by itself when every strategy has failed, naming the cause in the log', async () => {
    const { logger, lines } = recordingLogger();
    const broken = prepareStrategy(
      defineStrategy({
        name: 'broken',
        symbols: [AAPL],
        run: () => {
          throw new Error('no such indicator');
        },
      }),
    );
    harness = await startPaperHarness({ strategies: [broken], candles: [wavingDays(5)], logger });

    const end = await harness.session.ended;

    expect(end).toEqual({ kind: 'strategies-failed', message: 'every strategy failed' });
    expect(lines.some((line) => line.msg.includes('no such indicator'))).toBe(true);
  });
});
