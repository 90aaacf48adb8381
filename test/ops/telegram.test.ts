// The Telegram bot (grammy) against a local fake of the Bot API on 127.0.0.1, watching a paper run on the
// real simulator: notifications to every configured chat, commands only from them, confirmation before
// anything that changes trading, and neither token in any log line.
import { filter, firstValueFrom, timeout } from 'rxjs';
import { Fixed, Quantity } from '../../src/domain/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { LogLine } from '../../src/ops/view.js';
import { createTelegramBot } from '../../src/ops/telegram/bot.js';
import { FakeTelegram } from '../support/ops/fake-telegram.js';
import { startRunOps, type RunOps, type RunOpsOptions } from '../support/ops/run-ops.js';
import { injectFaults } from '../support/openapi/broker-harness.js';
import { BASE_TIME } from '../support/sim/harness.js';
import { first } from '../support/socket/wait.js';
import { removeTempFolders } from '../support/run/paper-harness.js';
import { sqliteRows } from '../support/sqlite-rows.js';

const BOT_TOKEN = '123456789:AAtest-bot-token-that-must-stay-secret';
const OWNER = 1001;
const PARTNER = 1002;
const STRANGER = 6666;

let run: RunOps | undefined;
let telegram: FakeTelegram | undefined;

afterEach(async () => {
  await run?.close();
  await telegram?.close();
  run = undefined;
  telegram = undefined;
  await removeTempFolders();
});

async function setUp(options: { ui?: boolean } & Pick<RunOpsOptions, 'risk' | 'tokenExpiresAt'> = {}) {
  telegram = new FakeTelegram(BOT_TOKEN);
  const apiRoot = await telegram.start();
  run = await startRunOps({
    ui: options.ui ?? false,
    ...(options.risk === undefined ? {} : { risk: options.risk }),
    ...(options.tokenExpiresAt === undefined ? {} : { tokenExpiresAt: options.tokenExpiresAt }),
    telegram: (logger, clock) =>
      createTelegramBot({
        settings: { token: BOT_TOKEN, chats: [OWNER, PARTNER], apiRoot },
        clock,
        logger,
        queue: { attempts: 3, initialDelayMs: 1000 },
        pollTimeoutSeconds: 1,
      }),
  });
  await run.harness.step();
  const fake = telegram;
  /** The owner types a command and gets the bot's next message. */
  const ask = async (text: string, chat = OWNER) => {
    const before = fake.sent.length;
    fake.type(chat, text);
    return fake.waitUntil(() => fake.sent.slice(before).find((message) => message.chatId === chat), `an answer to ${text}`);
  };
  return { run, fake, ask };
}

/** Resolves with the first log line with this message, logged already or from now on. */
function untilLogged(ops: RunOps, message: string): Promise<LogLine> {
  const found = ops.logs.recent().find((line) => line.message === message);
  if (found !== undefined) return Promise.resolve(found);
  return firstValueFrom(
    ops.logs.lines.pipe(
      filter((line) => line.message === message),
      timeout(10_000),
    ),
  );
}

function logText(ops: RunOps): string {
  return JSON.stringify(ops.logs.recent());
}

describe('Telegram bot against a fake Bot API', () => {
  it('tells every configured chat about fills, and answers /status, /positions and /orders', async () => {
    const { run, fake, ask } = await setUp();
    run.strategy.emit((ctx) => ctx.buy(10));
    await run.harness.settle();
    await run.harness.step();

    const owner = await fake.waitForMessage(OWNER, (text) => text.startsWith('✅ fill:'));
    await fake.waitForMessage(PARTNER, (text) => text.startsWith('✅ fill:'));
    expect(owner.text).toMatch(/^✅ fill: dip-buyer: Buy 10 AAPL\.US @ \d+(\.\d+)?$/);

    const status = await ask('/status');
    expect(status.text).toContain('run dip-buyer (paper)');
    expect(status.text).toContain('kill switch: off');
    expect(status.text).toContain('job dip-buyer: running');
    expect(status.text).toMatch(/USD: net assets \d+\.\d\d/);
    expect((await ask('/positions')).text).toMatch(/^AAPL\.US: 10 @ /);
    run.strategy.emit((ctx) => ctx.buy(5, { price: 50 }));
    await run.harness.settle();
    expect((await ask('/orders')).text).toMatch(/^\d+: Buy 5 AAPL\.US LO @ 50, NewStatus, filled 0 \[lt-/);
    expect(logText(run)).not.toContain(BOT_TOKEN);
  });

  it('ignores commands from chats that are not configured, and logs that without their text', async () => {
    const { run, fake, ask } = await setUp();
    fake.type(STRANGER, '/kill because I can');
    await ask('/help');

    expect(fake.sent.filter((message) => message.chatId === STRANGER)).toEqual([]);
    expect(run.control.killSwitch().tripped).toBe(false);
    const ignored = run.logs.recent().find((line) => line.message.includes('not configured'));
    expect(ignored?.fields).toContain('6666');
    expect(logText(run)).not.toContain('because I can');
  });

  it('flattens a position only after Confirm, and edits the question into the outcome', async () => {
    const { run, fake, ask } = await setUp();
    run.strategy.emit((ctx) => ctx.buy(10));
    await run.harness.settle();
    await run.harness.step();
    await fake.waitForMessage(OWNER, (text) => text.startsWith('✅ fill:'));

    const question = await ask('/flatten aapl.us');
    expect(question.text).toBe('Close the AAPL.US position with a market order?');
    expect(question.buttons.map((button) => button.text)).toEqual(['Confirm', 'Cancel']);
    expect(run.harness.sim.venue.orders()).toHaveLength(1);
    fake.press(OWNER, question, 'Confirm');
    await run.harness.until(() => run.harness.sim.venue.orders().length === 2, 'the closing order');
    await run.harness.settle();
    await run.harness.step();

    await fake.waitUntil(() => (question.edits > 0 ? question : undefined), 'the outcome');
    expect(question.text).toBe('Done: AAPL.US: closing order sent (see fills and denials for how it went)');
    expect(run.harness.sim.venue.orders().map((order) => [order.side, order.status])).toEqual([
      ['Buy', 'FilledStatus'],
      ['Sell', 'FilledStatus'],
    ]);
    expect((await ask('/flatten nonsense')).text).toMatch(/^usage: \/flatten SYMBOL/);
  });

  it('trips the kill switch on /kill only when confirmed (Cancel does nothing), tells everyone, and /reset lifts it', async () => {
    const { run, fake, ask } = await setUp();
    const first = await ask('/kill');
    fake.press(OWNER, first, 'Cancel');
    await fake.waitUntil(() => (first.edits > 0 ? first : undefined), 'the cancellation');
    expect(first.text).toBe('Cancelled: Trip the kill switch (new orders halted, open orders cancelled).');
    expect(run.control.killSwitch().tripped).toBe(false);

    const second = await ask('/kill spread too wide');
    fake.press(OWNER, second, 'Confirm');
    await fake.waitUntil(() => (second.edits > 0 ? second : undefined), 'the outcome');
    expect(second.text).toBe('Done: kill switch tripped: new orders held back, 0 open order(s) being cancelled');
    expect(run.control.killSwitch()).toMatchObject({ tripped: true, reason: 'telegram: spread too wide' });
    await fake.waitForMessage(PARTNER, (text) => text.startsWith('🛑 halt: kill switch: telegram: spread too wide'));

    const reset = await ask('/reset');
    fake.press(OWNER, reset, 'Confirm');
    await fake.waitUntil(() => (reset.edits > 0 ? reset : undefined), 'the reset');
    expect(run.control.killSwitch().tripped).toBe(false);
    await fake.waitForMessage(PARTNER, (text) => text.startsWith('🟢 recovered: kill switch reset'));
  });

  it('pauses (after Confirm) and resumes the strategy by name, each kept in the journal with the chat', async () => {
    const { run, fake, ask } = await setUp();
    expect((await ask('/pause')).text).toBe('usage: /pause JOB');
    const question = await ask('/pause dip-buyer');
    fake.press(OWNER, question, 'Confirm');
    await fake.waitUntil(() => (question.edits > 0 ? question : undefined), 'the outcome');
    expect(run.gate.paused).toBe(true);
    expect((await ask('/resume dip-buyer')).text).toBe('dip-buyer resumed');
    expect(run.gate.paused).toBe(false);
    expect((await ask('/resume nobody')).text).toBe("no job named nobody (this run's strategy is dip-buyer)");
    // Each one kept in the run's journal with the chat it came from.
    const kept = sqliteRows<{ detail: string }>(run.harness.journalFile, `SELECT detail FROM events WHERE type = 'control' ORDER BY id`);
    expect(kept.map((row) => JSON.parse(row.detail) as unknown)).toMatchObject([
      { action: 'pause', target: 'dip-buyer', by: 'telegram', chatId: OWNER, done: true },
      { action: 'resume', target: 'dip-buyer', by: 'telegram', chatId: OWNER, done: true, message: 'dip-buyer resumed' },
      { action: 'resume', target: 'nobody', by: 'telegram', chatId: OWNER, done: false },
    ]);
  });

  it('lets a confirmation expire after a minute on the clock, and a button pressed in another chat does nothing', async () => {
    const { run, fake, ask } = await setUp();
    const question = await ask('/kill');
    fake.press(PARTNER, question, 'Confirm');
    await fake.waitUntil(() => (question.edits > 0 ? question : undefined), 'the refusal');
    expect(question.text).toBe('Expired: send the command again.');
    expect(run.control.killSwitch().tripped).toBe(false);

    const late = await ask('/kill');
    run.harness.clock.advanceBy(60_001);
    fake.press(OWNER, late, 'Confirm');
    await fake.waitUntil(() => (late.edits > 0 ? late : undefined), 'the expiry');
    expect(late.text).toBe('Expired: send the command again.');
    expect(run.control.killSwitch().tripped).toBe(false);
  });

  it('retries a notification the Bot API failed, on the clock, without sending it twice to a chat that got it', async () => {
    const { run, fake } = await setUp();
    fake.failSends = 1;
    run.strategy.emit((ctx) => ctx.buy(10));
    await run.harness.settle();
    await run.harness.step();

    await fake.waitForMessage(PARTNER, (text) => text.startsWith('✅ fill:'));
    expect(fake.sent.filter((message) => message.chatId === OWNER)).toEqual([]);
    const retry = await untilLogged(run, 'notification delivery failed');
    expect(retry.fields).toContain('chat 1001');
    await run.harness.untilTimerAt(run.harness.clock.now() + 1000);
    await run.harness.clock.advanceByAsync(1000);
    await fake.waitForMessage(OWNER, (text) => text.startsWith('✅ fill:'));
    expect(fake.sent.filter((message) => message.text.startsWith('✅ fill:')).map((message) => message.chatId)).toEqual([PARTNER, OWNER]);
    expect(logText(run)).not.toContain(BOT_TOKEN);
  });

  it("waits as long as a 429's retry_after says before sending to that chat again", async () => {
    const { run, fake } = await setUp();
    fake.throttleSends = { count: 1, retryAfterSeconds: 5 };
    run.strategy.emit((ctx) => ctx.buy(10));
    await run.harness.settle();
    await run.harness.step();

    await fake.waitForMessage(PARTNER, (text) => text.startsWith('✅ fill:'));
    const refused = await untilLogged(run, 'notification delivery failed');
    expect(refused.fields).toContain('retry after 5');
    // The queue's own backoff (1 s here) is shorter than what the Bot API asked for: the retry is armed at 5 s.
    const { clock } = run.harness;
    await run.harness.untilTimerAt(clock.now() + 5_000);
    expect(fake.sent.filter((message) => message.chatId === OWNER)).toEqual([]);
    await clock.advanceByAsync(5_000);
    await fake.waitForMessage(OWNER, (text) => text.startsWith('✅ fill:'));
    expect(fake.sent.filter((message) => message.text.startsWith('✅ fill:')).map((message) => message.chatId)).toEqual([PARTNER, OWNER]);
  });

  it("tells the chats the run's other news as the webhook does: token expiry, denial, outage and recovery, crash", async () => {
    const expiresAt = BASE_TIME + 3 * 86_400_000;
    const { run, fake } = await setUp({ risk: { maxPositionPerSymbol: Quantity.of(5) }, tokenExpiresAt: expiresAt });
    const expiry = await fake.waitForMessage(PARTNER, (text) => text.startsWith('🔑 token-expiry:'));
    expect(expiry.text).toBe(
      `🔑 token-expiry: the access token expires ${new Date(expiresAt).toISOString()}: refresh it (trader token refresh) before then`,
    );

    run.strategy.emit((ctx) => ctx.buy(10));
    await run.harness.settle();
    const denial = await fake.waitForMessage(OWNER, (text) => text.startsWith('⛔ denial:'));
    expect(denial.text).toMatch(/^⛔ denial: dip-buyer: order denied \(EXCEEDS_MAX_POSITION\): /);

    const { harness } = run;
    injectFaults(harness.sim, { socketDropAfterPushes: 1 });
    const tradeDown = first(
      harness.session.connections,
      (report) => report.connection === 'trade' && report.state.status === 'reconnecting',
    );
    run.strategy.emit((ctx) => ctx.buy(2));
    await harness.session.runtime.settled();
    const down = await tradeDown;
    injectFaults(harness.sim, { socketDropAfterPushes: null });
    await fake.waitForMessage(OWNER, (text) => text.startsWith('📡 outage: the trade connection is lost ('));
    await harness.clock.advanceByAsync(down.state.status === 'reconnecting' ? down.state.retryInMs : 0);
    await fake.waitForMessage(OWNER, (text) => text === '🟢 recovered: the trade connection is back');

    run.strategy.fail('division by zero in the signal');
    const crash = await fake.waitForMessage(PARTNER, (text) => text.startsWith('💥 crash:'));
    expect(crash.text).toContain('dip-buyer');
    expect(crash.text).toContain('division by zero in the signal');
    expect(fake.sent.filter((message) => message.chatId === OWNER).map((message) => message.text.split(':')[0])).toEqual([
      '🔑 token-expiry',
      '⛔ denial',
      '📡 outage',
      '🟢 recovered',
      '💥 crash',
    ]);
    expect(logText(run)).not.toContain(BOT_TOKEN);
  });

  it('tells the chats once when risk halts the strategy for the day, beside each denial', async () => {
    const { run, fake } = await setUp({ risk: { dailyLossLimit: Fixed.of('0.01') } });
    const halts = () => run.harness.ofType('denial').filter((event) => event.denial.code === 'DAILY_LOSS_HALT');
    for (let round = 0; round < 12 && halts().length < 2; round += 1) {
      run.strategy.emit((ctx) => ctx.buy(10));
      await run.harness.settle();
      await run.harness.step();
    }
    expect(halts()).toHaveLength(2);

    const halt = await fake.waitForMessage(OWNER, (text) => text.startsWith('🛑 halt:'));
    expect(halt.text).toMatch(/^🛑 halt: dip-buyer: risk halt: /);
    await fake.waitUntil(
      () =>
        fake.sent.filter((message) => message.chatId === OWNER && message.text.includes('(DAILY_LOSS_HALT)')).length === 2
          ? true
          : undefined,
      'both denials',
    );
    expect(fake.sent.filter((message) => message.chatId === OWNER && message.text.startsWith('🛑 halt:'))).toHaveLength(1);
  });
});
