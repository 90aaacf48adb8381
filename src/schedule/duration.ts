// Human durations in config files ("500ms", "30s", "5m", "2h", "3d") as milliseconds.
import { z } from 'zod';

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/;

/** Milliseconds of a duration text, or undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  const match = DURATION.exec(text.trim());
  if (match === null) return undefined;
  return Math.round(Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS]);
}

/** A zod field for a duration: a string with a unit, parsed to milliseconds. */
export const durationSchema = z.string().transform((text, context) => {
  const ms = parseDuration(text);
  if (ms === undefined) {
    context.addIssue({ code: 'custom', message: `invalid duration "${text}" (use a number and a unit: 500ms, 30s, 5m, 2h, 3d)` });
    return z.NEVER;
  }
  return ms;
});

/** "1h 30m"-style text for status output. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  const seconds = Math.round(ms / 1000);
  const parts: string[] = [];
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  if (days > 0) parts.push(`${days}d`);
  if (hours > 0) parts.push(`${hours}h`);
  if (minutes > 0) parts.push(`${minutes}m`);
  if (rest > 0 || parts.length === 0) parts.push(`${rest}s`);
  return parts.slice(0, 2).join(' ');
}
