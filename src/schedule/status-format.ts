// The status snapshot for people: summary lines and tables (headers + rows) that `trader status` prints
// with the CLI's table printer.
import { formatDuration } from './duration.js';
import type { JobStatusLine, StatusSnapshot } from './status.js';

export interface TextTable {
  readonly headers: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

export interface StatusReport {
  readonly summary: readonly string[];
  readonly jobs: TextTable;
  readonly positions: TextTable;
  readonly pnl: TextTable;
}

/** A snapshot older than this probably comes from a scheduler that is no longer running (it rewrites every 15 s). */
export const STALE_MS = 60_000;

/** Whether the scheduler that wrote a snapshot is still running, and if not, why it is thought not to be. */
export interface Liveness {
  readonly running: boolean;
  readonly problem: string | undefined;
}

/** `pidAlive` says whether a process with that id exists on this machine. */
export function livenessOf(snapshot: StatusSnapshot, nowMs: number, pidAlive: (pid: number) => boolean): Liveness {
  if (snapshot.state === 'stopped') return { running: false, problem: `the scheduler stopped at ${snapshot.generatedAt}` };
  if (!pidAlive(snapshot.pid))
    return {
      running: false,
      problem: `the scheduler (pid ${snapshot.pid}) is not running: it ended without a graceful stop (killed or crashed)`,
    };
  const age = nowMs - Date.parse(snapshot.generatedAt);
  if (age > STALE_MS) return { running: false, problem: `stale, the scheduler may not be running (no update for ${formatDuration(age)})` };
  return { running: true, problem: undefined };
}

export function describeStatus(snapshot: StatusSnapshot, nowMs: number, liveness?: Liveness): StatusReport {
  const age = nowMs - Date.parse(snapshot.generatedAt);
  const problem = liveness?.problem ?? (age > STALE_MS ? 'stale, the scheduler may not be running' : undefined);
  const summary = [
    `scheduler pid ${snapshot.pid}, ${snapshot.mode} mode, ${snapshot.configFile}${snapshot.startedAt === undefined ? '' : `, started ${snapshot.startedAt}`}`,
    `status as of ${snapshot.generatedAt} (${formatDuration(age)} ago)${problem === undefined ? '' : `: ${problem}`}`,
    `health: ${snapshot.healthy ? 'ok' : 'needs attention'} · link: ${snapshot.link}`,
  ];
  if (snapshot.tokenExpiresAt !== undefined)
    summary.push(
      `access token expires ${snapshot.tokenExpiresAt} (in ${formatDuration(Date.parse(snapshot.tokenExpiresAt) - nowMs)}); refreshed automatically ahead of that`,
    );
  if (snapshot.killSwitch !== undefined) summary.push(`kill switch: ON since ${snapshot.killSwitch.at}: ${snapshot.killSwitch.reason}`);
  if (snapshot.notifications !== undefined) {
    const { sent, failed, dropped, queued } = snapshot.notifications;
    summary.push(`notifications: ${sent} sent, ${failed} failed, ${dropped} dropped, ${queued} queued`);
  }
  if (snapshot.portfolioError !== undefined) summary.push(`positions unavailable: ${snapshot.portfolioError}`);
  else if (snapshot.portfolio !== undefined) summary.push(`positions and PnL as of ${snapshot.portfolio.asOf}`);
  return {
    summary,
    jobs: { headers: ['JOB', 'STATE', 'NEXT', 'LAST', 'ERROR'], rows: snapshot.jobs.map((job) => jobRow(job, nowMs)) },
    positions: {
      headers: ['SYMBOL', 'QUANTITY', 'AVG COST', 'MARKET VALUE', 'UNREALIZED PNL'],
      rows: (snapshot.portfolio?.positions ?? []).map((line) => [
        line.symbol,
        line.quantity,
        line.averageCost ?? '',
        line.marketValue ?? '',
        line.unrealizedPnl ?? '',
      ]),
    },
    pnl: {
      headers: ['CURRENCY', 'NET ASSETS', 'DAY START', 'PNL TODAY'],
      rows: (snapshot.portfolio?.pnlToday ?? []).map((line) => [line.currency, line.netAssets, line.dayStart, line.change]),
    },
  };
}

function jobRow(job: JobStatusLine, nowMs: number): string[] {
  const state =
    job.state === 'halted'
      ? `halted (${job.haltReason}) until ${job.haltedUntil}`
      : job.state === 'restarting'
        ? `restarting at ${job.restartAt}`
        : job.windowOpen && job.state === 'idle'
          ? 'idle (window open)'
          : job.state;
  const until = job.next === undefined ? 0 : Date.parse(job.next.at) - nowMs;
  const next =
    job.next === undefined
      ? '-'
      : `${job.next.trigger} ${job.next.local} (${until >= 0 ? `in ${formatDuration(until)}` : `due ${formatDuration(-until)} ago`})`;
  const fired = job.lastFired === undefined ? undefined : { at: job.lastFired.at, text: `${job.lastFired.kind} ${job.lastFired.local}` };
  const skipped =
    job.lastSkipped === undefined
      ? undefined
      : { at: job.lastSkipped.at, text: `skipped ${job.lastSkipped.local}: ${job.lastSkipped.detail}` };
  const last = [fired, skipped].filter((entry) => entry !== undefined).sort((a, b) => b.at.localeCompare(a.at))[0]?.text ?? '-';
  const error = job.lastError === undefined ? '' : `${job.lastError.at}: ${job.lastError.message}`;
  return [job.name, state, next, last, error];
}
