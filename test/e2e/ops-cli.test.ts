// `trader run --ui --metrics-port --telegram-chat` through the real binary in paper mode: the dashboard's
// token made once (mode 600) and shown only on the terminal, the API and /metrics behind it, Telegram
// notified and obeyed through a fake Bot API on 127.0.0.1, neither token in any log line, and the day's first
// reading kept beside the journal.
import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeTelegram } from '../support/ops/fake-telegram.js';
import { AAPL, wavingDays } from '../support/run/candles.js';
import { removeTempFolders, tempFolder } from '../support/run/paper-harness.js';
import { spawnRun, type RunningTrader } from '../support/run/spawn-run.js';
import { writeCandleFolder } from '../support/sim/candles.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BOT_TOKEN = '987654321:AAe2e-bot-token-never-to-be-logged';
const CHAT = 4242;

const children: RunningTrader[] = [];
let telegram: FakeTelegram | undefined;

afterEach(async () => {
  for (const child of children.splice(0))
    if (child.child.exitCode === null && child.child.signalCode === null) await child.signal('SIGKILL');
  await telegram?.close();
  telegram = undefined;
  await removeTempFolders();
});

async function paperArgs(): Promise<{ args: string[]; folder: string }> {
  const data = await writeCandleFolder([wavingDays(400)]);
  const folder = await tempFolder();
  return {
    folder,
    args: [
      'strategies/sma-crossover.ts',
      '--symbols',
      AAPL,
      '--data',
      data,
      '--speed',
      '200000',
      '--journal',
      join(folder, 'journal.sqlite'),
      '--param',
      'fast=3',
      '--param',
      'slow=6',
      '--param',
      'quantity=10',
    ],
  };
}

function urlIn(line: string, after: string): string {
  const match = new RegExp(`${after} (http://127\\.0\\.0\\.1:\\d+)`).exec(line);
  if (match === null) throw new Error(`no URL after "${after}" in ${line}`);
  return match[1]!;
}

describe('trader run with the dashboard, metrics and Telegram (binary, paper)', () => {
  it('serves the API and metrics behind a token made once with mode 600, obeys Telegram, and logs neither token', {
    timeout: 90_000,
  }, async () => {
    telegram = new FakeTelegram(BOT_TOKEN);
    const apiRoot = await telegram.start();
    const { args, folder } = await paperArgs();
    const run = spawnRun([...args, '--ui=0', '--metrics-port=0', '--telegram-chat', String(CHAT), '--json-logs', '--verbose'], {
      TELEGRAM_BOT_TOKEN: BOT_TOKEN,
      TELEGRAM_API_ROOT: apiRoot,
    });
    children.push(run);
    const dashboard = urlIn(await run.waitForLog('dashboard at'), 'dashboard at');
    const metricsUrl = urlIn(await run.waitForLog('Prometheus metrics at'), 'Prometheus metrics at');
    expect(await run.waitForLog('a new dashboard token was saved')).toContain(join(folder, 'ui-token'));
    const tokenFile = join(folder, 'ui-token');
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    const token = readFileSync(tokenFile, 'utf8').trim();
    const get = async (url: string, bearer?: string) => {
      const response = await request(url, { headers: bearer === undefined ? {} : { authorization: `Bearer ${bearer}` } });
      return { status: response.statusCode, type: response.headers['content-type'], text: await response.body.text() };
    };

    expect((await get(`${dashboard}/api/state`)).status).toBe(401);
    expect((await get(`${dashboard}/api/state`, 'wrong')).status).toBe(401);
    const state = await get(`${dashboard}/api/state`, token);
    expect(JSON.parse(state.text)).toMatchObject({ bot: { kind: 'run', mode: 'paper', name: 'sma-crossover' } });
    expect((await get(`${metricsUrl}/metrics`)).status).toBe(401);
    for (const url of [`${dashboard}/metrics`, `${metricsUrl}/metrics`]) {
      const metrics = await get(url, token);
      expect(metrics.type).toBe('application/openmetrics-text; version=1.0.0; charset=utf-8');
      expect(metrics.text).toContain('trader_connection_up{connection="quote"} 1');
      expect(metrics.text).toContain('trader_job_state{job="sma-crossover",state="running"} 1');
    }
    expect((await get(`${metricsUrl}/api/state`, token)).status).toBe(404);

    const fake = telegram;
    await fake.waitForMessage(CHAT, (text) => text.startsWith('✅ fill: sma-crossover: '));
    fake.type(CHAT, '/status');
    const status = await fake.waitForMessage(CHAT, (text) => text.startsWith('run sma-crossover (paper)'));
    expect(status.text).toContain('quote connection: online');
    fake.type(CHAT, '/kill');
    const question = await fake.waitForMessage(CHAT, (text) => text.startsWith('Trip the kill switch'));
    fake.press(CHAT, question, 'Confirm');
    await fake.waitUntil(() => (question.text.startsWith('Done: kill switch tripped') ? question : undefined), 'the kill switch');
    expect(JSON.parse((await get(`${dashboard}/api/state`, token)).text).killSwitch).toMatchObject({ tripped: true });

    const exit = await run.signal('SIGINT');
    expect(exit).toEqual({ code: 0, signal: null });
    // The day's first reading, kept beside the journal: a restart today counts the day's PnL from it.
    const day = JSON.parse(readFileSync(join(folder, 'journal.account-day.json'), 'utf8')) as { starts: Record<string, string> };
    expect(Object.keys(day.starts)).toContain('USD');
    const logs = run.stderr();
    expect(logs).toContain('"msg":"telegram: bot listening for commands"');
    expect(logs).not.toContain(token);
    expect(logs).not.toContain(BOT_TOKEN);
    expect(logs).not.toContain(BOT_TOKEN.split(':')[1]);
    expect(run.stdout()).not.toContain(token);
  });

  it('shows a new token once, on the terminal, and not again on the next start', { timeout: 90_000 }, async () => {
    const { args } = await paperArgs();
    const onTerminal = (): Promise<string> =>
      new Promise((resolve, reject) => {
        // `script` gives the run a terminal of its own, as a person's shell would.
        const command = ['node', 'bin/trader.js', 'run', ...args, '--ui=0', '--for', '3s'].map((part) => `'${part}'`).join(' ');
        const child = spawn('script', ['-qec', command, '/dev/null'], {
          cwd: REPO_ROOT,
          env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', TERM: 'dumb' },
        });
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
        child.on('error', reject);
        child.on('close', (code) => (code === 0 ? resolve(output) : reject(new Error(`exit ${code}: ${output}`))));
      });

    const first = await onTerminal();
    const token = readFileSync(join(args[args.indexOf('--journal') + 1]!, '..', 'ui-token'), 'utf8').trim();
    const second = await onTerminal();

    const withToken = first.split('\n').filter((line) => line.includes(token));
    expect(withToken).toHaveLength(2);
    expect(withToken[0]).toMatch(/^New dashboard token \(saved in .*ui-token, mode 600; shown only this once\): /);
    expect(withToken[1]).toMatch(/^ {2}open http:\/\/127\.0\.0\.1:\d+\/#token=/);
    expect(second).not.toContain(token);
    expect(second).toContain('dashboard at http://127.0.0.1:');
  });

  it('refuses --ui-host without --ui before starting anything, naming the flag (exit 2)', async () => {
    const { args } = await paperArgs();
    const run = spawnRun([...args, '--ui-host', '0.0.0.0']);
    children.push(run);
    const exit = await new Promise<number | null>((resolve) => run.child.on('close', resolve));
    expect(exit).toBe(2);
    expect(run.stderr()).toContain('--ui-host applies to the dashboard or metrics: add --ui (or --metrics-port)');
  });
});
