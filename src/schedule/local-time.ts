// Instants written as local ISO time with the zone's offset ("2024-03-11T09:30:00-04:00"), for logs and status.
import { pad, toLocal, zoneOffsetAt } from '../domain/time-zone.js';

export function formatLocal(utcMs: number, zone: string): string {
  const local = toLocal(utcMs, zone);
  const offsetMinutes = Math.round(zoneOffsetAt(utcMs, zone) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const absolute = Math.abs(offsetMinutes);
  const offset = absolute === 0 ? 'Z' : `${sign}${pad(Math.floor(absolute / 60))}:${pad(absolute % 60)}`;
  return `${local.year}-${pad(local.month)}-${pad(local.day)}T${pad(local.hour)}:${pad(local.minute)}:${pad(local.second)}${offset}`;
}
