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

/** A snapshot older than this probably comes from a scheduler that is no longer running. */
const STALE_MS = 60_000;

export function describeStatus(snapshot: StatusSnapshot, nowMs: number): StatusReport {
  const age = nowMs - Date.parse(snapshot.generatedAt);
  const summary = [
    `scheduler pid ${snapshot.pid}, ${snapshot.mode} mode, ${snapshot.configFile}`,
    `status as of ${snapshot.generatedAt} (${formatDuration(age)} ago)${age > STALE_MS ? ': stale, the scheduler may not be running' : ''}`,
    `health: ${snapshot.healthy ? 'ok' : 'needs attention'} · link: ${snapshot.link}`,
  ];
  if (snapshot.killSwitch !== undefined) summary.push(`kill switch: ON since ${snapshot.killSwitch.at}: ${snapshot.killSwitch.reason}`);
  if (snapshot.notifications !== undefined) {
    const { sent, failed, dropped, queued } = snapshot.notifications;
    summary.push(`notifications: ${sent} sent, ${failed} failed, ${dropped} dropped, ${queued} queued`);
  }
  if (snapshot.portfolioError !== undefined) summary.push(`positions unavailable: ${snapshot.portfolioError}`);
  return {
    summary,
    jobs: { headers: ['JOB', 'STATE', 'NEXT', 'LAST', 'ERROR'], rows: snapshot.jobs.map((job) => jobRow(job, nowMs)) },
    positions: {
      headers: ['SYMBOL', 'QUANTITY', 'AVG COST', 'MARKET VALUE', 'UNREALIZED PNL'],
      rows: (snapshot.portfolio?.positions ?? []).map((line) => [line.symbol, line.quantity, line.averageCost ?? '', line.marketValue ?? '', line.unrealizedPnl ?? '']),
    },
    pnl: {
      headers: ['CURRENCY', 'REALIZED TODAY', 'UNREALIZED'],
      rows: (snapshot.portfolio?.pnlToday ?? []).map((line) => [line.currency, line.realized, line.unrealized]),
    },
  };
}

function jobRow(job: JobStatusLine, nowMs: number): string[] {
  const state = job.state === 'halted' ? `halted (${job.haltReason}) until ${job.haltedUntil}`
    : job.state === 'restarting' ? `restarting at ${job.restartAt}`
    : job.windowOpen && job.state === 'idle' ? 'idle (window open)'
    : job.state;
  const next = job.next === undefined ? '-' : `${job.next.trigger} ${job.next.local} (in ${formatDuration(Date.parse(job.next.at) - nowMs)})`;
  const fired = job.lastFired === undefined ? undefined : { at: job.lastFired.at, text: `${job.lastFired.kind} ${job.lastFired.local}` };
  const skipped = job.lastSkipped === undefined ? undefined : { at: job.lastSkipped.at, text: `skipped ${job.lastSkipped.local}: ${job.lastSkipped.detail}` };
  const last = [fired, skipped].filter((entry) => entry !== undefined).sort((a, b) => b.at.localeCompare(a.at))[0]?.text ?? '-';
  const error = job.lastError === undefined ? '' : `${job.lastError.at}: ${job.lastError.message}`;
  return [job.name, state, next, last, error];
}
