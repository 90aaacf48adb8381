// Output shapes of the market commands: market-local times with their offset, and JSON lines for streams.
import { pad, toLocal, zoneOffsetAt } from '../../domain/time-zone.js';
import { jsonReplacer } from '../output.js';

/** "2024-01-02 10:15:00+08:00" in the market's zone; date only for daily and longer bars when `dateOnly`. */
export function marketTime(instant: number, zone: string, dateOnly = false): string {
  const local = toLocal(instant, zone);
  const date = `${local.year}-${pad(local.month)}-${pad(local.day)}`;
  if (dateOnly) return date;
  const offset = Math.round(zoneOffsetAt(instant, zone) / 60_000);
  const sign = offset < 0 ? '-' : '+';
  return `${date} ${pad(local.hour)}:${pad(local.minute)}:${pad(local.second)}${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
}

/** One JSON object per line (Decimals as strings), for piping into jq and friends. */
export function writeJsonLine(value: unknown, write: (text: string) => void = (text) => void process.stdout.write(text)): void {
  write(`${JSON.stringify(value, jsonReplacer)}\n`);
}
