// Where and when a strategy failed: the line of the user's own file, read from the error's stack as Node
// reports it (source-mapped positions when the file was compiled with source maps), and the bar it saw last.
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isIntraday, marketOf, pad, timeZoneOf, toLocal, type Period, type SecuritySymbol } from '../domain/index.js';
import { mappedFrame, type SourceLocation } from './frames.js';

/** The bar a strategy was handed last: its stream, its start time and its place in that stream. */
export interface SeenBar {
  readonly symbol: SecuritySymbol;
  readonly period: Period;
  /** Bar start, epoch ms. */
  readonly time: number;
  /** 0-based position among the bars of that stream the strategy was handed since it started. */
  readonly index: number;
}

export interface StrategyFailure {
  /** The cause's message. */
  readonly error: string;
  /** Where it was thrown in the user's code, when the stack shows it. */
  readonly location: SourceLocation | undefined;
  /** The bar being handled (or the last one handed over) when it failed; undefined before the first bar. */
  readonly bar: SeenBar | undefined;
  readonly stack: string | undefined;
}

export type { SourceLocation } from './frames.js';

const POSITION = /^(.+):(\d+):(\d+)$/;

/** The runtime's own folder (src/ or dist/): frames in it are the framework's, not the user's. */
const RUNTIME_ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
/** Helpers strategy code calls (ctx.buy, operators, decimals): frames here may sit above the user's. */
const CALLED_BY_STRATEGIES = [resolve(RUNTIME_ROOT, 'strategy'), resolve(RUNTIME_ROOT, 'domain')];

/**
 * The first frame in `source` (the strategy's file, as shown to the user). Failing that (a strategy made
 * in code, or a helper module of the user's), the first frame outside Node's internals, node_modules and
 * the runtime, above the first frame of the runtime's own machinery (below it are the runtime's callers);
 * undefined for errors the runtime raised itself.
 */
export function locateInStack(stack: string | undefined, source: string): SourceLocation | undefined {
  if (stack === undefined) return undefined;
  const frames = stack
    .split('\n')
    .map(parseFrame)
    .filter((frame) => frame !== undefined);
  const strategyFile = resolve(source);
  const own = frames.find((frame) => frame.file === strategyFile);
  if (own !== undefined) return { ...own, file: source };
  for (const frame of frames) {
    if (!isAbsolute(frame.file)) continue;
    if (frame.file.includes(`${sep}node_modules${sep}`)) continue;
    if (!inside(frame.file, RUNTIME_ROOT)) return { ...frame, file: displayFile(frame.file) };
    if (!CALLED_BY_STRATEGIES.some((folder) => inside(frame.file, folder))) return undefined;
  }
  return undefined;
}

// "    at fn (/a/b.ts:11:32)", "    at /a/b.ts:11:32", "    at async fn (file:///a/b.ts:11:32)"
function parseFrame(line: string): SourceLocation | undefined {
  const frame = readFrame(line);
  return frame === undefined ? undefined : mappedFrame(frame);
}

function readFrame(line: string): SourceLocation | undefined {
  const text = line.trim();
  if (!text.startsWith('at ')) return undefined;
  const body = text.slice(3);
  const place = body.endsWith(')') && body.includes('(') ? body.slice(body.lastIndexOf('(') + 1, -1) : body.replace(/^async /, '');
  const match = POSITION.exec(place);
  if (match === null) return undefined;
  let file = match[1]!;
  if (file.startsWith('file://')) {
    try {
      file = fileURLToPath(file);
    } catch {
      return undefined;
    }
  }
  return { file, line: Number(match[2]), column: Number(match[3]) };
}

/** Inside the working folder, relative to it (the way users type paths); absolute elsewhere. */
function displayFile(file: string): string {
  const local = relative(process.cwd(), file);
  return local.startsWith('..') || isAbsolute(local) ? file : local;
}

function inside(file: string, folder: string): boolean {
  return file.startsWith(`${folder}${sep}`);
}

/** "strategies/my.ts:11:32". */
export function formatLocation(location: SourceLocation): string {
  return `${location.file}:${location.line}:${location.column}`;
}

/** What a failure line needs of the bar: `time` already written for people (market-local). */
export interface BarText {
  readonly symbol: string;
  readonly period: string;
  readonly time: string;
  readonly index: number;
}

/**
 * One line: "strategy boom (s.ts) failed at s.ts:11:32, on the SPX.US day bar of 2000-05-23 (index 99): boom".
 * Location and bar are left out when unknown.
 */
export function describeFailure(
  strategy: string,
  source: string,
  error: string,
  location: SourceLocation | null | undefined,
  bar: BarText | null | undefined,
): string {
  return `strategy ${strategy} (${source}) failed${wherePart(location, bar)}: ${error}`;
}

/** "boom (at s.ts:11:32, on the SPX.US day bar of 2000-05-23 (index 99))": the cause, then where, when known. */
export function describeWhere(location: SourceLocation | null | undefined, bar: BarText | null | undefined, error: string): string {
  const where = wherePart(location, bar).trim();
  return where === '' ? error : `${error} (${where})`;
}

/** describeWhere of a strategy's failure, its bar's time written in its market's wall time. */
export function failureWhere(failure: StrategyFailure): string {
  return describeWhere(failure.location, failure.bar === undefined ? undefined : barText(failure.bar), failure.error);
}

function wherePart(location: SourceLocation | null | undefined, bar: BarText | null | undefined): string {
  return [
    location === null || location === undefined ? '' : ` at ${formatLocation(location)}`,
    bar === null || bar === undefined ? '' : ` on the ${bar.symbol} ${bar.period} bar of ${bar.time} (index ${bar.index})`,
  ]
    .filter((part) => part !== '')
    .join(',');
}

/** The bar for a failure line: its start in its market's wall time ("2024-01-02", or "2024-01-02 09:30" intraday). */
export function barText(bar: SeenBar): BarText {
  const local = toLocal(bar.time, timeZoneOf(marketOf(bar.symbol)));
  const date = `${local.year}-${pad(local.month)}-${pad(local.day)}`;
  return { ...bar, time: isIntraday(bar.period) ? `${date} ${pad(local.hour)}:${pad(local.minute)}` : date };
}
