import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadScheduleConfig, parseScheduleConfig } from '../../src/schedule/config.js';
import { ScheduleConfigError } from '../../src/schedule/config-problems.js';

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'schedule-config-'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

const ISSUE_EXAMPLE = `timezone: Asia/Hong_Kong
mode: paper            # paper | live
journal: state/journal.sqlite
risk: { maxOrderNotional: 200000, dailyLossLimit: 20000 }
notify: { webhook: http://127.0.0.1:9000/hook }
jobs:
  - name: hk-trend
    strategy: strategies/sma-crossover.ts
    symbols: [700.HK, 9988.HK]
    params: { fast: 10, slow: 30 }
    start: "30 9 * * 1-5"
    stop: "55 15 * * 1-5"
    flattenAtStop: false
  - name: weekly-dca
    cron: "0 10 * * 1"
    strategy: strategies/dca.ts
    market: HK
  - name: nightly-data
    cron: "0 18 * * 1-5"
    task: fetch-data
    symbols: [700.HK]
`;

function problemsOf(text: string, file = 'schedule.yaml'): string[] {
  try {
    parseScheduleConfig(text, file, { checkFiles: false });
  } catch (error) {
    if (error instanceof ScheduleConfigError)
      return error.problems.map((problem) => `${problem.line ?? '-'}: ${problem.path}: ${problem.message}`);
    throw error;
  }
  throw new Error('expected the config to be rejected');
}

describe('schedule config', () => {
  it('reads the example of the issue, resolving paths, markets, zones and defaults', async () => {
    const file = path.join(directory, 'schedule.yaml');
    writeFileSync(file, ISSUE_EXAMPLE);

    const config = await loadScheduleConfig(file, { checkFiles: false });

    expect(config.mode).toBe('paper');
    expect(config.journal).toBe(path.join(directory, 'state/journal.sqlite'));
    expect(config.risk).toEqual({ maxOrderNotional: 200000, dailyLossLimit: 20000 });
    expect(config.notify).toMatchObject({ webhook: 'http://127.0.0.1:9000/hook', attempts: 5 });
    expect(config.outageLimitMs).toBe(60_000);
    expect(config.calendar.cacheFile).toBe(path.join(directory, 'state/trading-days.json'));
    const [trend, dca, data] = config.jobs;
    expect(trend).toMatchObject({
      name: 'hk-trend',
      market: 'HK',
      timezone: 'Asia/Hong_Kong',
      symbols: ['700.HK', '9988.HK'],
      params: { fast: 10, slow: 30 },
    });
    expect(trend!.target).toEqual({
      kind: 'strategy',
      path: path.join(directory, 'strategies/sma-crossover.ts'),
      period: undefined,
      runForMs: 3_600_000,
    });
    expect(trend!.trigger.kind).toBe('window');
    expect(dca).toMatchObject({ market: 'HK', trigger: { kind: 'cron' } });
    expect(data!.target).toEqual({
      kind: 'task',
      task: 'fetch-data',
      fetch: { period: 'day', lookbackMs: 30 * 86_400_000, dataDir: path.join(directory, 'data') },
    });
    expect(config.jobs.map((job) => job.days)).toEqual(['trading', 'trading', 'trading']);
    expect(config.paper).toEqual({
      data: [path.join(directory, 'backtest-data')],
      from: undefined,
      speed: 1,
      cash: '1000000',
      onBadRow: 'fail',
      shortSelling: false,
      borrowFeeRate: 0,
      shortMarginRatios: null,
      adjust: 'none',
    });
    expect(config.accountCheckMs).toBe(30_000);
    expect(data!.restart).toEqual({ maxRestarts: 5, windowMs: 1_800_000, backoff: { initialMs: 1000, maxMs: 300_000, jitter: true } });
  });

  it('uses the market zone when neither the job nor the file names one, and honours a job override', () => {
    const config = parseScheduleConfig(
      `
jobs:
  - { name: a, strategy: a.ts, symbols: [AAPL.US], cron: "0 10 * * 1" }
  - { name: b, strategy: b.ts, symbols: [AAPL.US], cron: "0 10 * * 1", timezone: Europe/London }
`,
      'x.yaml',
      { checkFiles: false },
    );
    expect(config.jobs.map((job) => job.timezone)).toEqual(['America/New_York', 'Europe/London']);
  });

  it('reports every problem of a YAML file at once, each with its path and line', () => {
    const problems = problemsOf(`timezone: Mars/Olympus
mode: demo
notify: { webhook: ftp://example.test/hook }
jobz: []
jobs:
  - name: a
    strategy: a.ts
    symbols: [700.HK]
    start: "30 9 * * 1-5"
  - name: b
    strategy: b.ts
    market: HK
    cron: "61 * * * *"
    extra: 1
  - name: a
    task: fetch-data
    strategy: c.ts
    cron: "0 18 * * 1-5"
  - name: d
    strategy: d.ts
    symbols: [700.HK, AAPL.US, "???"]
    cron: "0 1 * * *"
`);
    expect(problems).toEqual([
      '1: timezone: unknown time zone "Mars/Olympus" (use an IANA name such as Asia/Hong_Kong or America/New_York)',
      '2: mode: unknown mode "demo" (use paper or live)',
      '3: notify.webhook: must be an http:// or https:// URL',
      '4: jobz: unknown key "jobz"',
      '9: jobs[0].start: "start" requires "stop"',
      '13: jobs[1].cron: invalid cron expression "61 * * * *" (61 is a invalid expression for minute)',
      '14: jobs[1].extra: unknown key "extra"',
      '15: jobs[2].name: duplicate job name "a" (also jobs[0])',
      '15: jobs[2]: a job needs exactly one of "strategy" or "task"',
      '15: jobs[2].symbols: fetch-data needs at least one symbol',
      '15: jobs[2].market: required when the job has no symbols (HK, US, CN or SG)',
      '21: jobs[3].symbols[2]: symbol "???" must look like CODE.MARKET (e.g. 700.HK, AAPL.US)',
    ]);
  });

  it('reports the problems of a JSON file with paths and lines too', () => {
    const json = JSON.stringify(
      {
        jobs: [
          { name: 'x', strategy: 's.ts', cron: '0 10 * * 1', symbols: ['700.HK', 'AAPL.US'] },
          { name: 'y', task: 'dance', cron: '0 0 * *' },
        ],
      },
      null,
      2,
    );
    expect(problemsOf(json, 'schedule.json')).toEqual([
      '3: jobs[0].market: required: the symbols span several markets (HK, US); name the one whose trading days apply',
      '12: jobs[1].market: required when the job has no symbols (HK, US, CN or SG)',
      '14: jobs[1].task: unknown task "dance" (known: fetch-data)',
      '15: jobs[1].cron: invalid cron expression "0 0 * *" (expected 5 or 6 fields but got 4)',
    ]);
  });

  it('names the file in the error message, one problem per line', () => {
    expect(() =>
      parseScheduleConfig('jobs:\n  - { name: x, strategy: s.ts, market: HK, cron: "61 * * * *" }\n', 'conf/schedule.yaml', {
        checkFiles: false,
      }),
    ).toThrow(
      'invalid schedule config conf/schedule.yaml (1 problem):\n  conf/schedule.yaml:2: jobs[0].cron: invalid cron expression "61 * * * *"',
    );
  });

  it('rejects cross-field mistakes: cron with a window, a task in a window, flattenAtStop on a cron job', () => {
    expect(
      problemsOf(`
jobs:
  - { name: a, strategy: a.ts, market: HK, cron: "0 1 * * *", start: "0 2 * * *" }
  - { name: b, task: fetch-data, symbols: [700.HK], start: "0 9 * * *", stop: "0 16 * * *" }
  - { name: c, strategy: c.ts, market: HK, cron: "0 1 * * *", flattenAtStop: true }
  - { name: d, task: fetch-data, market: HK, cron: "0 1 * * *" }
  - { name: e, strategy: e.ts, stop: "0 16 * * *" }
  - { name: f, strategy: f.ts, market: US }
`),
    ).toEqual([
      '3: jobs[0].cron: use either "cron" or "start"/"stop", not both',
      '4: jobs[1].start: a task runs once per fire: use "cron", not "start"/"stop"',
      '5: jobs[2].flattenAtStop: applies only to start/stop windows',
      '6: jobs[3].symbols: fetch-data needs at least one symbol',
      '7: jobs[4].stop: "stop" requires "start"',
      '7: jobs[4].market: required when the job has no symbols (HK, US, CN or SG)',
      '8: jobs[5]: a job needs "cron", or "start" and "stop"',
    ]);
  });

  it('checks that strategy files exist, relative to the config file', async () => {
    const file = path.join(directory, 'schedule.yaml');
    writeFileSync(path.join(directory, 'here.ts'), 'export default {};');
    writeFileSync(
      file,
      'jobs:\n  - { name: a, strategy: here.ts, market: HK, cron: "0 1 * * *" }\n  - { name: b, strategy: gone.ts, market: HK, cron: "0 1 * * *" }\n',
    );

    await expect(loadScheduleConfig(file)).rejects.toThrow(`jobs[1].strategy: file not found: ${path.join(directory, 'gone.ts')}`);
  });

  it('validates risk limits with an injected schema and reports them with the rest', () => {
    const riskSchema = z.strictObject({ maxOrderNotional: z.number().positive() });
    expect(() =>
      parseScheduleConfig(
        'risk: { maxOrderNotional: -1, typo: 2 }\njobs:\n  - { name: x, strategy: s.ts, market: HK, cron: "0 1 * * *" }\n',
        's.yaml',
        { riskSchema, checkFiles: false },
      ),
    ).toThrow(/s\.yaml:1: risk\.maxOrderNotional: .*\n {2}s\.yaml:1: risk\.typo: unknown key "typo"/);
  });

  it('explains missing and mistyped values plainly', () => {
    expect(problemsOf('jobs:\n  - name: x\n    strategy: s.ts\n    market: HK\n    cron: 5\n    symbols: 700.HK\n')).toEqual([
      '5: jobs[0].cron: expected string, got number 5',
      '6: jobs[0].symbols: expected a list, got string "700.HK"',
    ]);
    expect(problemsOf('mode: live\n')).toEqual(['1: jobs: required']);
    expect(problemsOf('')).toEqual(['-: : the file is empty: it needs at least a "jobs" list']);
  });

  it('reports YAML syntax errors with their line', () => {
    expect(problemsOf('jobs:\n  - name: [unclosed\n')).toEqual([expect.stringMatching(/^\d+: : syntax: /)]);
  });

  it('puts the journal in the state dir by default, one per mode, and lets --state move the state dir', () => {
    const jobs = 'jobs:\n  - { name: x, strategy: s.ts, market: HK, cron: "0 1 * * *" }\n';
    const paper = parseScheduleConfig(jobs, '/etc/trader/schedule.yaml', { checkFiles: false });
    const live = parseScheduleConfig(`mode: live\n${jobs}`, '/etc/trader/schedule.yaml', { checkFiles: false });
    const moved = parseScheduleConfig(`stateDir: here\n${jobs}`, '/etc/trader/schedule.yaml', {
      checkFiles: false,
      stateDir: '/var/lib/trader',
    });

    expect([paper.stateDir, paper.journal]).toEqual(['/etc/trader/state', '/etc/trader/state/paper-journal.sqlite']);
    expect([live.journal, live.paper]).toEqual(['/etc/trader/state/journal.sqlite', undefined]);
    expect([moved.stateDir, moved.journal, moved.calendar.cacheFile]).toEqual([
      '/var/lib/trader',
      '/var/lib/trader/paper-journal.sqlite',
      '/var/lib/trader/trading-days.json',
    ]);
  });

  it('reads the paper simulator settings and the per-job settings of runs and tasks', () => {
    const config = parseScheduleConfig(
      `
paper: { data: [data/hk, data/us], from: 2024-01-02, speed: 60, cash: "250000.50" }
accountCheck: 5m
jobs:
  - { name: dca, strategy: dca.ts, symbols: [700.HK], cron: "0 10 * * 1", runFor: 15m, period: 5m, params: { amount: 5000, loud: true, label: weekly } }
  - { name: data, task: fetch-data, symbols: [700.HK], cron: "0 18 * * *", days: all, period: 1m, lookback: 7d, dataDir: /srv/candles }
`,
      '/etc/trader/schedule.yaml',
      { checkFiles: false },
    );

    expect(config.paper).toEqual({
      data: ['/etc/trader/data/hk', '/etc/trader/data/us'],
      from: '2024-01-02',
      speed: 60,
      cash: '250000.50',
      onBadRow: 'fail',
      shortSelling: false,
      borrowFeeRate: 0,
      shortMarginRatios: null,
      adjust: 'none',
    });
    expect(config.accountCheckMs).toBe(300_000);
    expect(config.jobs[0]).toMatchObject({
      target: { kind: 'strategy', period: '5m', runForMs: 900_000 },
      params: { amount: 5000, loud: true, label: 'weekly' },
      days: 'trading',
    });
    expect(config.jobs[1]).toMatchObject({
      target: { kind: 'task', fetch: { period: '1m', lookbackMs: 7 * 86_400_000, dataDir: '/srv/candles' } },
      days: 'all',
    });
  });

  it('rejects settings that do not apply: paper in live mode, runFor outside cron strategy jobs, fetch settings on strategies', () => {
    expect(
      problemsOf(`
mode: live
paper: { speed: 0 }
jobs:
  - { name: a, strategy: a.ts, market: HK, start: "0 9 * * *", stop: "0 16 * * *", runFor: 1h }
  - { name: b, task: fetch-data, symbols: [700.HK], cron: "0 18 * * *", runFor: 1h }
  - { name: c, strategy: c.ts, market: HK, cron: "0 1 * * *", lookback: 3d, dataDir: x, period: 7m, days: weekends }
  - { name: d, strategy: d.ts, market: HK, cron: "0 1 * * *", params: { nested: { no: 1 } } }
`),
    ).toEqual([
      '3: paper.speed: must be greater than zero',
      '3: paper: applies only to mode: paper (a live schedule trades the real account)',
      '5: jobs[0].runFor: applies only to cron-fired strategy jobs (a window run ends at its stop)',
      '6: jobs[1].runFor: applies only to cron-fired strategy jobs (a window run ends at its stop)',
      '7: jobs[2].period: unknown period "7m" (use 1m, 2m, 3m, 5m, 10m, 15m, 20m, 30m, 45m, 60m, 120m, 180m, 240m, day, week, month, quarter, year)',
      '7: jobs[2].days: must be "trading" (the market\'s trading days) or "all" (every day)',
      '7: jobs[2].lookback: applies only to the fetch-data task',
      '7: jobs[2].dataDir: applies only to the fetch-data task',
      '8: jobs[3].params.nested: must be a number, a string or true/false',
    ]);
  });

  it('reads the dashboard (ui:) and Telegram (telegram:) settings, resolving the token file next to the config', () => {
    const jobs = 'jobs:\n  - { name: x, strategy: s.ts, market: HK, cron: "0 1 * * *" }\n';
    const on = parseScheduleConfig(`ui: true\n${jobs}`, '/etc/trader/schedule.yaml', { checkFiles: false });
    const full = parseScheduleConfig(
      `ui: { port: 8080, host: 0.0.0.0, tokenFile: state/ui-token, readOnly: true, metricsPort: 9464 }
telegram: { chats: [12345, -100200300] }
${jobs}`,
      '/etc/trader/schedule.yaml',
      { checkFiles: false },
    );
    const off = parseScheduleConfig(jobs, '/etc/trader/schedule.yaml', { checkFiles: false });

    expect(on.ui).toEqual({ port: undefined, host: undefined, tokenFile: undefined, readOnly: undefined, metricsPort: undefined });
    expect(full.ui).toEqual({ port: 8080, host: '0.0.0.0', tokenFile: '/etc/trader/state/ui-token', readOnly: true, metricsPort: 9464 });
    expect(full.telegram).toEqual({ chats: [12345, -100_200_300], apiRoot: undefined });
    expect([off.ui, off.telegram]).toEqual([undefined, undefined]);
    expect(parseScheduleConfig(`ui: false\n${jobs}`, '/etc/trader/schedule.yaml', { checkFiles: false }).ui).toBeUndefined();
  });

  it('reports mistakes in ui: and telegram: with their line, and keeps the bot token out of the file', () => {
    expect(
      problemsOf(`
ui: { port: 70000, theme: dark }
telegram: { chats: [], token: "123:abc" }
jobs:
  - { name: x, strategy: s.ts, market: HK, cron: "0 1 * * *" }
`),
    ).toEqual([
      '2: ui.port: must be a port number from 0 to 65535 (0 picks a free one)',
      '2: ui.theme: unknown key "theme"',
      '3: telegram.chats: name at least one chat id',
      '3: telegram.token: unknown key "token"',
    ]);
    expect(
      problemsOf('ui: yes please\ntelegram: { chats: [1.5] }\njobs:\n  - { name: x, strategy: s.ts, market: HK, cron: "0 1 * * *" }\n'),
    ).toEqual([
      '1: ui: must be true, false or a map of port, host, tokenFile, readOnly, metricsPort',
      '2: telegram.chats[0]: must be a chat id (an integer)',
    ]);
  });

  it("reports an invalid job name together with the job's other problems", () => {
    expect(
      problemsOf(`
jobs:
  - name: "bad name!"
    strategy: a.ts
    task: fetch-data
    cron: "0 1 * * *"
    flattenAtStop: true
    lookback: 3d
`),
    ).toEqual([
      '3: jobs[0].name: must be letters, digits, ".", "_" or "-"',
      '3: jobs[0]: a job needs exactly one of "strategy" or "task"',
      '3: jobs[0].symbols: fetch-data needs at least one symbol',
      '3: jobs[0].market: required when the job has no symbols (HK, US, CN or SG)',
      '7: jobs[0].flattenAtStop: applies only to start/stop windows',
    ]);
  });

  it('reports a missing strategy file, missing paper data and bad params of every job at load, all at once', async () => {
    const file = path.join(directory, 'schedule.yaml');
    writeFileSync(path.join(directory, 'ok.ts'), 'export default {};');
    writeFileSync(
      file,
      `paper: { data: [missing-data] }
jobs:
  - { name: a, strategy: gone.ts, market: HK, cron: "0 1 * * *" }
  - { name: b, strategy: ok.ts, market: HK, cron: "0 1 * * *", params: { fast: 50, slow: 10 } }
  - { name: c, strategy: ok.ts, market: HK, cron: "0 1 * * *", period: 5m }
`,
    );
    const checked: unknown[] = [];

    const error = await loadScheduleConfig(file, {
      checkStrategy: async (job) => {
        checked.push(job);
        return job.params === undefined ? undefined : { key: 'params', message: 'param fast must be below slow' };
      },
    }).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ScheduleConfigError);
    expect((error as ScheduleConfigError).problems.map((problem) => `${problem.line}: ${problem.path}: ${problem.message}`)).toEqual([
      `1: paper.data[0]: candle data not found: ${path.join(directory, 'missing-data')}`,
      `3: jobs[0].strategy: file not found: ${path.join(directory, 'gone.ts')}`,
      '4: jobs[1].params: param fast must be below slow',
    ]);
    expect(checked).toEqual([
      { path: path.join(directory, 'ok.ts'), symbols: undefined, period: undefined, params: { fast: 50, slow: 10 } },
      { path: path.join(directory, 'ok.ts'), symbols: undefined, period: '5m', params: undefined },
    ]);
  });

  it('says where the default paper data was looked for when the file names none', async () => {
    const file = path.join(directory, 'schedule.yaml');
    writeFileSync(file, 'jobs:\n  - { name: a, task: fetch-data, symbols: [700.HK], cron: "0 1 * * *" }\n');

    await expect(loadScheduleConfig(file)).rejects.toThrow(
      `paper: candle data not found: ${path.join(directory, 'backtest-data')} (the default: set paper.data)`,
    );
    await expect(loadScheduleConfig(file, { checkFiles: false })).resolves.toMatchObject({ mode: 'paper' });
  });

  it('reads paper.onBadRow', () => {
    const jobs = 'jobs:\n  - { name: x, strategy: s.ts, market: HK, cron: "0 1 * * *" }\n';
    expect(parseScheduleConfig(`paper: { onBadRow: skip }\n${jobs}`, 's.yaml', { checkFiles: false }).paper?.onBadRow).toBe('skip');
    expect(problemsOf(`paper: { onBadRow: ignore }\n${jobs}`)).toEqual([
      '1: paper.onBadRow: must be "fail" (stop on a bad CSV row) or "skip" (drop it with a warning)',
    ]);
  });

  it("reads the paper venue's shorts and price adjustment, and says what is wrong with them", () => {
    const jobs = 'jobs:\n  - { name: x, strategy: s.ts, market: HK, cron: "0 1 * * *" }\n';
    const paper = (text: string) => parseScheduleConfig(`paper: ${text}\n${jobs}`, 's.yaml', { checkFiles: false }).paper;
    expect(paper('{ short: true, borrowRate: 0.03, shortMargin: { im: 1.5, mm: 1.3, fm: 1.2 }, adjust: forward }')).toMatchObject({
      shortSelling: true,
      borrowFeeRate: 0.03,
      shortMarginRatios: { im: 1.5, mm: 1.3, fm: 1.2 },
      adjust: 'forward',
    });
    expect(problemsOf(`paper: { borrowRate: 2, adjust: back, shortMargin: { im: 1, mm: 2, fm: 1 } }\n${jobs}`)).toEqual([
      '1: paper.shortMargin: factors must satisfy im >= mm >= fm',
      '1: paper.borrowRate: must be from 0 to 1 (a fraction a year)',
      '1: paper.adjust: must be "none" (apply dividends and splits beside the data) or "forward" (prices already adjusted)',
    ]);
    expect(problemsOf(`paper: { borrowRate: 0.03 }\n${jobs}`)).toEqual(['1: paper.borrowRate: borrowRate needs short: true']);
  });

  it('says when the file cannot be read', async () => {
    await expect(loadScheduleConfig(path.join(directory, 'missing.yaml'))).rejects.toThrow(
      /cannot read schedule config .*missing\.yaml: ENOENT/,
    );
  });
});
