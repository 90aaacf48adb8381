// Why a `--resume` file's trials are not this run's: what changed since they ran, and how to start afresh.
import { InvalidInputError } from '../domain/errors.js';

/** What must match for a file's trials to count in this run (strategy, space, data hash, costs …). */
export type RunIdentity = Readonly<Record<string, unknown>>;

/** What each part of a run's identity is, as a user knows it. */
const PARTS: Readonly<Record<string, string>> = {
  strategy: "the strategy's name",
  strategyHash: "the strategy's code (its file or a file it imports)",
  riskHash: "the risk file's content (--risk)",
  defaults: "the strategy's default params",
  space: 'the --param ranges',
  search: '--search',
  trials: '--trials',
  seed: '--seed',
  data: 'the data (its content)',
  from: '--from',
  to: '--to',
  settings: 'the run settings (costs, cash, symbols, period, risk, --blocks …)',
};

/** Why a file whose header is `was` (undefined: none) cannot be resumed by a run of `now`; undefined when it can. */
export function resumeRefusal(path: string, was: RunIdentity | undefined, now: RunIdentity): InvalidInputError | undefined {
  const fresh = `to start afresh, delete ${path} or give another --resume file`;
  if (was === undefined)
    return new InvalidInputError(`${path}: not a trials file of trader optimize (no run in its header); ${fresh}`, 'resume');
  const changed = Object.keys({ ...now, ...was }).filter((key) => JSON.stringify(now[key]) !== JSON.stringify(was[key]));
  if (changed.length === 0) return undefined;
  return new InvalidInputError(
    `${path} holds the trials of another run; changed since: ${changed.map((key) => `${PARTS[key] ?? key}${shownChange(key, was[key], now[key])}`).join('; ')}. Run the same strategy, params, data and settings to continue, or ${fresh}`,
    'resume',
  );
}

/** " (7 → 8)" for short values, " (in venue, cash)" for objects too long to show; a hash only changed. */
function shownChange(key: string, was: unknown, now: unknown): string {
  if (key === 'strategyHash' || key === 'riskHash' || key === 'data') return '';
  const before = was === undefined ? 'not set' : JSON.stringify(was);
  const after = now === undefined ? 'not set' : JSON.stringify(now);
  if (before.length + after.length <= 120) return ` (${before} → ${after})`;
  if (!isRecord(was) || !isRecord(now)) return '';
  const keys = Object.keys({ ...was, ...now }).filter((part) => JSON.stringify(was[part]) !== JSON.stringify(now[part]));
  return ` (in ${keys.join(', ')})`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
