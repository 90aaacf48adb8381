// What the Telegram bot needs: its token (from the environment, never from a file in the repo), the chats it
// talks to and takes commands from, and the Bot API's address (a self-hosted Bot API server, or a test's).

export interface TelegramSettings {
  readonly token: string;
  /** Chat ids (users or groups) that receive notifications and whose commands are obeyed. */
  readonly chats: readonly number[];
  /** Default https://api.telegram.org. */
  readonly apiRoot?: string;
}

export const TELEGRAM_TOKEN_VARIABLE = 'TELEGRAM_BOT_TOKEN';
export const TELEGRAM_API_ROOT_VARIABLE = 'TELEGRAM_API_ROOT';
