// Writes candles in the CSV format the reader takes: `date` for daily and longer bars, `datetime` with the
// market's UTC offset for intraday bars, so files are unambiguous wherever they are read.
import type { Candle } from '../../domain/candle.js';
import { isIntraday, type Period } from '../../domain/period.js';
import { pad, toLocal, zoneOffsetAt } from '../../domain/time-zone.js';

export function candleCsvHeader(period: Period): string {
  return `${isIntraday(period) ? 'datetime' : 'date'},open,high,low,close,volume,turnover\n`;
}

export function formatCandleRow(candle: Candle, timeZone: string): string {
  return `${formatTime(candle.time, candle.period, timeZone)},${candle.open},${candle.high},${candle.low},${candle.close},${candle.volume},${candle.turnover ?? ''}\n`;
}

export function formatCandleCsv(candles: readonly Candle[], period: Period, timeZone: string): string {
  return candleCsvHeader(period) + candles.map((candle) => formatCandleRow(candle, timeZone)).join('');
}

function formatTime(instant: number, period: Period, timeZone: string): string {
  const local = toLocal(instant, timeZone);
  const date = `${local.year}-${pad(local.month)}-${pad(local.day)}`;
  if (!isIntraday(period)) return date;
  const offsetMinutes = Math.round(zoneOffsetAt(instant, timeZone) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const absolute = Math.abs(offsetMinutes);
  return `${date}T${pad(local.hour)}:${pad(local.minute)}:${pad(local.second)}${sign}${pad(Math.floor(absolute / 60))}:${pad(absolute % 60)}`;
}
