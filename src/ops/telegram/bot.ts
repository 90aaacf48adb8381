// The Telegram bot (grammy, long polling): sends the bot's notifications and obeys commands from the
// configured chats only (anything from another chat is ignored and logged without its text). Commands that
// change trading (/pause, /flatten, /kill, /reset) ask first: an inline Confirm / Cancel, good for one
// minute, answered from the same chat. The token never reaches a log line: every error text is scrubbed.
import { Bot, InlineKeyboard, type Context } from 'grammy';
import type { Clock } from '../../domain/clock.js';
import { InvalidInputError } from '../../domain/errors.js';
import { parseSymbol } from '../../domain/symbol.js';
import { scrubSecrets, type Logger } from '../../log/logger.js';
import type { QueueSettings } from '../../schedule/queued-notifier.js';
import type { QueuedNotifier } from '../../schedule/queued-notifier.js';
import type { BotControl, ControlOutcome } from '../control.js';
import { performControl, type ControlAction } from '../control-action.js';
import type { OpsHub } from '../hub.js';
import { HELP, ordersText, positionsText, statusText } from './format.js';
import { telegramNotifier } from './notifier.js';
import type { TelegramSettings } from './settings.js';

const CONFIRM_MS = 60_000;

interface PendingAction {
  readonly chat: number;
  readonly description: string;
  readonly run: () => Promise<ControlOutcome>;
  readonly expiresAt: number;
}

export interface TelegramBot {
  /** Notifications to every configured chat (give it to the schedule service, or to the run's control). */
  readonly notifier: QueuedNotifier;
  /** Starts taking commands about this bot. */
  listen(control: BotControl, hub: OpsHub): void;
  /** Stops polling; the notifier is closed by its owner (after draining). */
  close(): Promise<void>;
}

export interface TelegramBotOptions {
  readonly settings: TelegramSettings;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly queue?: Omit<QueueSettings, 'clock' | 'logger'>;
  /** Long-polling timeout in seconds (Telegram holds getUpdates this long). Default 30. */
  readonly pollTimeoutSeconds?: number;
}

export function createTelegramBot(options: TelegramBotOptions): TelegramBot {
  const { settings, clock } = options;
  const logger = options.logger.child({ component: 'telegram' });
  const scrub = (error: unknown): string => scrubSecrets(error instanceof Error ? error.message : String(error), [settings.token]);
  const bot = new Bot(settings.token, { client: settings.apiRoot === undefined ? {} : { apiRoot: settings.apiRoot.replace(/\/+$/, '') } });
  const notifier = telegramNotifier(bot.api, settings.chats, settings.token, { ...options.queue, clock, logger });
  const allowed = new Set(settings.chats);
  const pending = new Map<string, PendingAction>();
  let sequence = 0;
  let polling: Promise<void> | undefined;

  bot.catch((error) => logger.error({ error: scrub(error.error), update: error.ctx.update.update_id }, 'telegram: a command failed'));
  bot.use(async (ctx, next) => {
    const chat = ctx.chat?.id;
    if (chat === undefined || !allowed.has(chat)) {
      logger.warn({ chatId: chat, from: ctx.from?.username }, 'telegram: ignored an update from a chat that is not configured');
      return;
    }
    await next();
  });

  function ask(ctx: Context, description: string, run: () => Promise<ControlOutcome>): Promise<unknown> {
    const id = String(++sequence);
    for (const [key, action] of pending) if (action.expiresAt <= clock.now()) pending.delete(key);
    pending.set(id, { chat: ctx.chat!.id, description, run, expiresAt: clock.now() + CONFIRM_MS });
    const keyboard = new InlineKeyboard().text('Confirm', `confirm:${id}`).text('Cancel', `cancel:${id}`);
    return ctx.reply(`${description}?`, { reply_markup: keyboard });
  }

  function argument(ctx: Context): string {
    return typeof ctx.match === 'string' ? ctx.match.trim() : '';
  }

  return {
    notifier,
    listen(control, hub) {
      const state = async () => {
        await hub.settled();
        return hub.state();
      };
      // Done and kept in the journal as the chat's action.
      const perform = (ctx: Context, action: ControlAction): Promise<ControlOutcome> =>
        performControl(control, action, { channel: 'telegram', chatId: ctx.chat!.id }, logger);
      bot.command(['start', 'help'], (ctx) => ctx.reply(HELP));
      bot.command('status', async (ctx) => ctx.reply(statusText(await state())));
      bot.command('positions', async (ctx) => ctx.reply(positionsText(await state())));
      bot.command('orders', async (ctx) => ctx.reply(ordersText(await state())));
      bot.command('resume', async (ctx) => {
        const job = argument(ctx);
        if (job === '') return ctx.reply('usage: /resume JOB');
        return ctx.reply((await perform(ctx, { name: 'resume', target: job })).message);
      });
      bot.command('pause', (ctx) => {
        const job = argument(ctx);
        if (job === '') return ctx.reply('usage: /pause JOB');
        return ask(ctx, `Pause ${job} (its run stops and its open orders are cancelled)`, () =>
          perform(ctx, { name: 'pause', target: job }),
        );
      });
      bot.command('flatten', (ctx) => {
        let symbol: ReturnType<typeof parseSymbol>;
        try {
          symbol = parseSymbol(argument(ctx));
        } catch (error) {
          return ctx.reply(error instanceof InvalidInputError ? `usage: /flatten SYMBOL (${error.message})` : 'usage: /flatten SYMBOL');
        }
        return ask(ctx, `Close the ${symbol} position with a market order`, () => perform(ctx, { name: 'flatten', target: symbol }));
      });
      bot.command('kill', (ctx) => {
        const reason = argument(ctx) || 'tripped from Telegram';
        return ask(ctx, 'Trip the kill switch (new orders halted, open orders cancelled)', () =>
          perform(ctx, { name: 'trip', reason: `telegram: ${reason}` }),
        );
      });
      bot.command('reset', (ctx) => ask(ctx, 'Reset the kill switch (trading resumes)', () => perform(ctx, { name: 'reset' })));
      bot.callbackQuery(/^(confirm|cancel):(\d+)$/, async (ctx) => {
        const [, verb, id] = ctx.match as RegExpMatchArray;
        const action = pending.get(id!);
        pending.delete(id!);
        if (action === undefined || action.chat !== ctx.chat?.id || action.expiresAt <= clock.now()) {
          await ctx.answerCallbackQuery({ text: 'expired: send the command again' });
          return ctx.editMessageText('Expired: send the command again.');
        }
        if (verb === 'cancel') {
          await ctx.answerCallbackQuery({ text: 'cancelled' });
          return ctx.editMessageText(`Cancelled: ${action.description}.`);
        }
        await ctx.answerCallbackQuery({ text: 'working…' });
        logger.info({ chatId: action.chat, action: action.description }, 'telegram: confirmed');
        const outcome = await action.run();
        hub.refresh();
        return ctx.editMessageText(`${outcome.done ? 'Done' : 'Not done'}: ${outcome.message}`);
      });
      bot.on('message', (ctx) => ctx.reply(`unknown command; try:\n${HELP}`));
      polling = bot
        .start({
          timeout: options.pollTimeoutSeconds ?? 30,
          allowed_updates: ['message', 'callback_query'],
          onStart: (me) => logger.info({ bot: me.username, chats: settings.chats.length }, 'telegram: bot listening for commands'),
        })
        .catch((error: unknown) => logger.error({ error: scrub(error) }, 'telegram: polling stopped; commands are not taken any more'));
    },
    async close() {
      if (bot.isRunning()) await bot.stop().catch((error: unknown) => logger.warn({ error: scrub(error) }, 'telegram: stopping failed'));
      await polling;
    },
  };
}
