import { describe, expect, it } from 'vitest';
import { defaultTokenFile, opsFlags } from '../../src/cli/run/ops-flags.js';

const DEFAULTS = { tokenFile: 'state/ui-token' };

describe('the watching flags of trader run and trader schedule', () => {
  it('asks for nothing without flags or config', () => {
    expect(opsFlags({}, {}, DEFAULTS)).toBeUndefined();
  });

  it('serves the dashboard on 127.0.0.1:8642 for --ui alone, the given port for --ui=PORT, another host only when named', () => {
    expect(opsFlags({ ui: '' }, {}, DEFAULTS)).toEqual({
      ui: { host: '127.0.0.1', port: 8642, readOnly: false },
      metricsPort: undefined,
      tokenFile: 'state/ui-token',
      host: '127.0.0.1',
      telegram: undefined,
    });
    expect(opsFlags({ ui: '9000', 'ui-host': '0.0.0.0', 'ui-read-only': true, 'ui-token-file': '/etc/t' }, {}, DEFAULTS)).toMatchObject({
      ui: { host: '0.0.0.0', port: 9000, readOnly: true },
      tokenFile: '/etc/t',
    });
    expect(opsFlags({ 'metrics-port': 9464 }, {}, DEFAULTS)).toMatchObject({ ui: undefined, metricsPort: 9464 });
  });

  it("takes a schedule's config as defaults that flags override, --ui alone meaning its health port", () => {
    const config = { tokenFile: 'state/ui-token', uiPort: 8080, uiOn: true, readOnly: true, telegramChats: [7] };
    expect(opsFlags({}, { TELEGRAM_BOT_TOKEN: 't' }, config)).toMatchObject({
      ui: { port: 8080, readOnly: true },
      telegram: { token: 't', chats: [7] },
    });
    expect(opsFlags({ ui: '', 'ui-read-only': false, 'telegram-chat': ['-100123'] }, { TELEGRAM_BOT_TOKEN: 't' }, config)).toMatchObject({
      ui: { port: 8080, readOnly: false },
      telegram: { chats: [-100_123] },
    });
  });

  it('refuses what cannot work, naming the flag', () => {
    expect(() => opsFlags({ 'ui-host': '0.0.0.0' }, {}, DEFAULTS)).toThrow('--ui-host applies to the dashboard or metrics');
    expect(() => opsFlags({ 'ui-read-only': true }, {}, DEFAULTS)).toThrow('--ui-read-only applies');
    expect(() => opsFlags({ ui: '99999' }, {}, DEFAULTS)).toThrow(
      '--ui: must be a port number from 0 to 65535 (0 picks a free one), got 99999',
    );
    expect(() => opsFlags({ ui: 'strategies/x.ts' }, {}, DEFAULTS)).toThrow('--ui: must be a port number');
    expect(() => opsFlags({ 'metrics-port': -1 }, {}, DEFAULTS)).toThrow('--metrics-port: must be a port number');
    expect(() => opsFlags({ 'telegram-chat': ['12'] }, {}, DEFAULTS)).toThrow("Telegram needs the bot's token in TELEGRAM_BOT_TOKEN");
    expect(() => opsFlags({ 'telegram-chat': ['me'] }, { TELEGRAM_BOT_TOKEN: 't' }, DEFAULTS)).toThrow(
      '--telegram-chat: "me" is not a chat id',
    );
  });

  it('keeps the token next to the journal', () => {
    expect(defaultTokenFile('state/paper-journal.sqlite')).toBe('state/ui-token');
    expect(defaultTokenFile('/var/lib/bot/journal.sqlite')).toBe('/var/lib/bot/ui-token');
  });
});
