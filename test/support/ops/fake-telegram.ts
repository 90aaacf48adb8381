// A fake of the Telegram Bot API on 127.0.0.1: a real HTTP server answering what grammy calls (getMe,
// deleteWebhook, getUpdates held open until an update arrives, sendMessage, editMessageText,
// answerCallbackQuery) for one bot token, 401 for any other. Tests type messages and press buttons as
// users of given chats, and read what the bot sent.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SentMessage {
  readonly messageId: number;
  readonly chatId: number;
  text: string;
  readonly buttons: readonly { readonly text: string; readonly data: string }[];
  edits: number;
}

interface Waiting {
  readonly offset: number;
  readonly response: ServerResponse;
}

export class FakeTelegram {
  readonly sent: SentMessage[] = [];
  readonly calls: string[] = [];
  /** Answers the next N sendMessage calls with HTTP 500 (a flaky Bot API). */
  failSends = 0;
  /** Answers the next N sendMessage calls with HTTP 429 and this retry_after (seconds), as Telegram's flood limit does. */
  throttleSends = { count: 0, retryAfterSeconds: 5 };
  private readonly updates: Record<string, unknown>[] = [];
  private waiting: Waiting[] = [];
  private nextUpdateId = 1;
  private nextMessageId = 1;
  private readonly listeners = new Set<() => void>();
  private server: Server | undefined;

  constructor(readonly token: string) {}

  async start(): Promise<string> {
    this.server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const waiting of this.waiting) answer(waiting.response, 200, { ok: true, result: [] });
    this.waiting = [];
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /** A user of `chatId` types `text`. */
  type(chatId: number, text: string): void {
    const entities = text.startsWith('/') ? [{ type: 'bot_command', offset: 0, length: text.split(' ')[0]!.length }] : [];
    this.push({
      message: {
        message_id: this.nextMessageId++,
        date: 1_717_000_000,
        chat: { id: chatId, type: 'private' },
        from: { id: chatId, is_bot: false, first_name: 'User', username: `user${chatId}` },
        text,
        entities,
      },
    });
  }

  /** A user of `chatId` presses the button with `text` under the bot's message. */
  press(chatId: number, message: SentMessage, text: string): void {
    const button = message.buttons.find((candidate) => candidate.text === text);
    if (button === undefined) throw new Error(`no button "${text}" under "${message.text}"`);
    this.push({
      callback_query: {
        id: String(this.nextUpdateId),
        from: { id: chatId, is_bot: false, first_name: 'User' },
        chat_instance: 'instance',
        data: button.data,
        message: { message_id: message.messageId, date: 1_717_000_000, chat: { id: chatId, type: 'private' }, text: message.text },
      },
    });
  }

  /** Resolves with the first message the bot sent to `chatId` (from index `after` on) that satisfies `test`. */
  waitForMessage(chatId: number, test: (text: string) => boolean, after = 0): Promise<SentMessage> {
    return this.waitUntil(
      () => this.sent.slice(after).find((message) => message.chatId === chatId && test(message.text)),
      `a message to ${chatId}`,
    );
  }

  /** Resolves once `find` returns something (a real-time guard fails a broken test). */
  waitUntil<T>(find: () => T | undefined, what: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const found = find();
        if (found === undefined) return;
        this.listeners.delete(check);
        clearTimeout(guard);
        resolve(found);
      };
      const guard = setTimeout(() => {
        this.listeners.delete(check);
        reject(new Error(`timed out waiting for ${what}; sent: ${JSON.stringify(this.sent.map((message) => message.text))}`));
      }, 10_000);
      this.listeners.add(check);
      check();
    });
  }

  private push(update: Record<string, unknown>): void {
    this.updates.push({ update_id: this.nextUpdateId++, ...update });
    const waiting = this.waiting;
    this.waiting = [];
    for (const one of waiting) this.deliver(one);
  }

  private deliver({ offset, response }: Waiting): void {
    const pending = this.updates.filter((update) => (update['update_id'] as number) >= offset);
    if (pending.length === 0) {
      this.waiting.push({ offset, response });
      return;
    }
    answer(response, 200, { ok: true, result: pending });
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let text = '';
    for await (const chunk of request) text += String(chunk);
    const body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
    const match = /^\/bot([^/]+)\/(\w+)$/.exec(request.url ?? '');
    if (match === null || match[1] !== this.token) {
      answer(response, 401, { ok: false, error_code: 401, description: 'Unauthorized' });
      return;
    }
    const method = match[2]!;
    this.calls.push(method);
    switch (method) {
      case 'getMe':
        return answer(response, 200, {
          ok: true,
          result: {
            id: 42,
            is_bot: true,
            first_name: 'Trader',
            username: 'trader_test_bot',
            can_join_groups: false,
            can_read_all_group_messages: false,
            supports_inline_queries: false,
          },
        });
      case 'deleteWebhook':
      case 'setMyCommands':
        return answer(response, 200, { ok: true, result: true });
      case 'getUpdates': {
        const offset = Number(body['offset'] ?? 0);
        for (const update of this.updates)
          if ((update['update_id'] as number) < offset) this.updates.splice(this.updates.indexOf(update), 1);
        if (Number(body['limit'] ?? 100) === 1 && Number(body['timeout'] ?? 0) === 0)
          return answer(response, 200, { ok: true, result: [] });
        const waiting = { offset, response };
        response.on('close', () => (this.waiting = this.waiting.filter((one) => one !== waiting)));
        this.deliver(waiting);
        return;
      }
      case 'sendMessage': {
        if (this.throttleSends.count > 0) {
          this.throttleSends.count -= 1;
          const retryAfter = this.throttleSends.retryAfterSeconds;
          return answer(response, 429, {
            ok: false,
            error_code: 429,
            description: `Too Many Requests: retry after ${retryAfter}`,
            parameters: { retry_after: retryAfter },
          });
        }
        if (this.failSends > 0) {
          this.failSends -= 1;
          return answer(response, 500, { ok: false, error_code: 500, description: 'Internal Server Error' });
        }
        const markup = body['reply_markup'] as { inline_keyboard?: { text: string; callback_data: string }[][] } | undefined;
        const message: SentMessage = {
          messageId: this.nextMessageId++,
          chatId: Number(body['chat_id']),
          text: String(body['text']),
          buttons: (markup?.inline_keyboard ?? []).flat().map((button) => ({ text: button.text, data: button.callback_data })),
          edits: 0,
        };
        this.sent.push(message);
        answer(response, 200, {
          ok: true,
          result: { message_id: message.messageId, date: 1_717_000_000, chat: { id: message.chatId, type: 'private' }, text: message.text },
        });
        this.changed();
        return;
      }
      case 'editMessageText': {
        const message = this.sent.find((one) => one.messageId === Number(body['message_id']));
        if (message !== undefined) {
          message.text = String(body['text']);
          message.edits += 1;
        }
        answer(response, 200, { ok: true, result: true });
        this.changed();
        return;
      }
      case 'answerCallbackQuery':
        return answer(response, 200, { ok: true, result: true });
      default:
        return answer(response, 404, { ok: false, error_code: 404, description: `Not Found: method ${method}` });
    }
  }
}

function answer(response: ServerResponse, status: number, body: unknown): void {
  if (response.writableEnded) return;
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}
