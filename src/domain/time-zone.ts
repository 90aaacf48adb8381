// Market-local wall time ⇄ UTC instants, from the zone rules of Temporal (temporal-polyfill, which reads the
// IANA database through Intl). Per zone, a transition table is built from getTimeZoneTransition a year-sized
// block at a time, only for the blocks asked about; lookups remember the constant-offset span of the last
// instant and of the last wall time, so reading a file's rows in order costs two comparisons a row.
import { Temporal } from 'temporal-polyfill';
import { DAY_MS, dateKeyOfDay, daysFromCivil } from './civil-date.js';
import { InvalidInputError } from './errors.js';

export interface LocalDateTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

/** The average Gregorian year: blocks of the transition table need not follow calendar years. */
const BLOCK_MS = 31_556_952_000;
/** How far past an instant a search for the next change surely looked when it found none: 3 × 365 days. */
const SEARCHED_MS = 3 * 365 * 86_400_000;
const zones = new Map<string, ZoneRules>();
/** Zones whose rules came from a table (ZoneRules.seed). */
const seededZones = new Set<string>();

interface Block {
  /** Instants at which the offset changes, ascending; `offsets[i + 1]` applies from `changes[i]`. */
  readonly changes: readonly number[];
  /** Offsets from UTC in ms; `offsets[0]` applies from the block's start. */
  readonly offsets: readonly number[];
}

/**
 * A zone's rules over a run of blocks, as plain numbers: what a start-up snapshot carries so that a process
 * started from it asks Intl nothing.
 */
export interface ZoneTable {
  readonly zone: string;
  /** The first block's key (its start is `firstBlock` × the block length). */
  readonly firstBlock: number;
  readonly blocks: readonly Block[];
}

/** One zone's offsets from UTC at any instant, and the instant of any wall time. */
export class ZoneRules {
  private readonly blocks = new Map<number, Block>();
  // NaN at first (no span yet), which also makes these float fields from the start: a field that changes from
  // small integer to float later makes the compiler throw away the code that read it.
  /** The constant-offset span [spanFrom, spanUntil) of the last instant looked up (clipped to its block). */
  private spanFrom = Number.NaN;
  private spanUntil = Number.NaN;
  private spanOffset = Number.NaN;
  /** Wall times in [wallFrom, wallUntil) occur once each, at wall − wallOffset (no gap or repeat there). */
  private wallFrom = Number.NaN;
  private wallUntil = Number.NaN;
  private wallOffset = Number.NaN;
  /** Where the last block load stopped: the offset from `from` until the change `next` (at `until`). */
  private chain:
    | { readonly from: number; readonly offset: number; readonly next: Temporal.ZonedDateTime | null; readonly until: number }
    | undefined;

  private constructor(readonly zone: string) {}

  /** The shared rules of an IANA zone ("America/New_York"); InvalidInputError for an unknown one. */
  static of(zone: string): ZoneRules {
    let rules = zones.get(zone);
    if (rules === undefined) {
      try {
        Temporal.Instant.fromEpochMilliseconds(0).toZonedDateTimeISO(zone);
      } catch {
        throw new InvalidInputError(`unknown time zone "${zone}"`, 'timezone');
      }
      rules = new ZoneRules(zone);
      zones.set(zone, rules);
    }
    return rules;
  }

  /**
   * Rules made from a table (the blocks it holds are taken as they are; any other is read from Temporal when
   * asked), and from then on what `of` gives for the zone.
   */
  static seed(table: ZoneTable): ZoneRules {
    const rules = new ZoneRules(table.zone);
    for (const [index, block] of table.blocks.entries()) rules.blocks.set(table.firstBlock + index, block);
    zones.set(table.zone, rules);
    seededZones.add(table.zone);
    return rules;
  }

  /** Whether the zone's rules were seeded from a table (the table's years are then answered without Temporal). */
  static isSeeded(zone: string): boolean {
    return seededZones.has(zone);
  }

  /** The blocks of [fromYear, untilYear) of UTC, read from Temporal where not yet known. */
  table(fromYear: number, untilYear: number): ZoneTable {
    const firstBlock = Math.floor(Date.UTC(fromYear, 0, 1) / BLOCK_MS);
    const lastBlock = Math.floor((Date.UTC(untilYear, 0, 1) - 1) / BLOCK_MS);
    const blocks: Block[] = [];
    for (let key = firstBlock; key <= lastBlock; key += 1) blocks.push(this.blocks.get(key) ?? this.load(key));
    return { zone: this.zone, firstBlock, blocks };
  }

  /** Offset from UTC in ms at an instant (positive east of Greenwich). */
  offsetAt(instant: number): number {
    if (instant >= this.spanFrom && instant < this.spanUntil) return this.spanOffset;
    this.locate(instant);
    return this.spanOffset;
  }

  /**
   * The instant of a wall time, given as the epoch ms of the same fields read as UTC. A wall time skipped by
   * a forward change resolves forward (by the length of the gap, as Temporal's 'compatible'); a repeated
   * one resolves to its first occurrence.
   */
  instantOf(wall: number): number {
    if (wall >= this.wallFrom && wall < this.wallUntil) return wall - this.wallOffset;
    return this.resolve(wall);
  }

  /**
   * Whether a wall time (as in instantOf) is skipped by a forward change or shown twice by a backward one;
   * undefined when it occurs once.
   */
  clockChangeAt(wall: number): 'skipped' | 'repeated' | undefined {
    const before = this.offsetAt(wall - DAY_MS);
    const after = this.offsetAt(wall + DAY_MS);
    if (before === after) return undefined;
    const first = wall - before;
    const second = wall - after;
    const firstShows = first + this.offsetAt(first) === wall;
    const secondShows = second + this.offsetAt(second) === wall;
    if (!firstShows && !secondShows) return 'skipped';
    return firstShows && secondShows ? 'repeated' : undefined;
  }

  private resolve(wall: number): number {
    const before = this.offsetAt(wall - DAY_MS);
    const after = this.offsetAt(wall + DAY_MS);
    let instant = wall - before;
    if (before !== after) {
      const first = Math.min(wall - before, wall - after);
      const second = Math.max(wall - before, wall - after);
      if (first + this.offsetAt(first) === wall) instant = first;
      else if (second + this.offsetAt(second) === wall) instant = second;
    }
    this.rememberWallSpan(instant);
    return instant;
  }

  /** The wall times of the span of `instant` that no neighbouring span also shows (or skips). */
  private rememberWallSpan(instant: number): void {
    this.locate(instant);
    const from = this.spanFrom;
    const until = this.spanUntil;
    const offset = this.spanOffset;
    const previous = this.offsetAt(from - 1);
    const next = this.offsetAt(until);
    this.wallFrom = from + Math.max(offset, previous);
    this.wallUntil = until + Math.min(offset, next);
    this.wallOffset = offset;
  }

  private locate(instant: number): void {
    const key = Math.floor(instant / BLOCK_MS);
    const block = this.blocks.get(key) ?? this.load(key);
    const { changes, offsets } = block;
    let index = 0;
    while (index < changes.length && instant >= changes[index]!) index += 1;
    this.spanFrom = index === 0 ? key * BLOCK_MS : changes[index - 1]!;
    this.spanUntil = index === changes.length ? (key + 1) * BLOCK_MS : changes[index]!;
    this.spanOffset = offsets[index]!;
  }

  private load(key: number): Block {
    const start = key * BLOCK_MS;
    const end = start + BLOCK_MS;
    const chain = this.chain;
    let next: Temporal.ZonedDateTime | null;
    /** The instant the library last searched from (what a search that found nothing vouches for). */
    let from = start;
    const offsets: number[] = [];
    if (chain !== undefined && chain.from <= start && start < chain.until) {
      offsets.push(chain.offset);
      next = chain.next;
      from = chain.from;
    } else {
      const at = Temporal.Instant.fromEpochMilliseconds(start).toZonedDateTimeISO(this.zone);
      offsets.push(at.offsetNanoseconds / 1e6);
      next = at.getTimeZoneTransition('next');
    }
    const changes: number[] = [];
    while (next !== null && next.epochMilliseconds < end) {
      changes.push(next.epochMilliseconds);
      offsets.push(next.offsetNanoseconds / 1e6);
      from = next.epochMilliseconds;
      next = next.getTimeZoneTransition('next');
    }
    // The change found past this block starts the next one, so walking block after block asks the library
    // once per change. None found means none within the library's search, which reaches at least three
    // years past `from` (temporal-polyfill: the later of it and now, plus 1,098 days), so a zone with no
    // changes (Hong Kong since 1979) is asked once every three blocks.
    const offset = offsets[offsets.length - 1]!;
    this.chain = { from, offset, next, until: next === null ? Math.max(end, from + SEARCHED_MS) : next.epochMilliseconds };
    const block = { changes, offsets };
    this.blocks.set(key, block);
    return block;
  }
}

/** Epoch ms of wall-clock fields read as UTC (years 0–99 too, which Date.UTC would move to 19xx). */
export function wallTime(local: LocalDateTime): number {
  const { year, month, day, hour, minute, second } = local;
  if (year >= 100) return Date.UTC(year, month - 1, day, hour, minute, second);
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return date.getTime();
}

/** The wall-clock fields of an instant in a zone. */
export function toLocal(utcMs: number, zone: string): LocalDateTime {
  const wall = utcMs + ZoneRules.of(zone).offsetAt(utcMs);
  const dayNumber = Math.floor(wall / DAY_MS);
  const key = dateKeyOfDay(dayNumber);
  const seconds = Math.floor((wall - dayNumber * DAY_MS) / 1000);
  return {
    year: Math.floor(key / 10_000),
    month: Math.floor(key / 100) % 100,
    day: key % 100,
    hour: Math.floor(seconds / 3600),
    minute: Math.floor(seconds / 60) % 60,
    second: seconds % 60,
  };
}

/** Offset of the zone from UTC, in ms, at an instant (positive east of Greenwich). */
export function zoneOffsetAt(utcMs: number, zone: string): number {
  return ZoneRules.of(zone).offsetAt(utcMs);
}

/**
 * The instant of a zone's wall-clock time. A time skipped by a daylight-saving jump resolves forward;
 * a repeated one resolves to its first occurrence.
 */
export function fromLocal(local: LocalDateTime, zone: string): number {
  return ZoneRules.of(zone).instantOf(wallTime(local));
}

/** "YYYY-MM-DD" of an instant in a zone. */
export function localDate(utcMs: number, zone: string): string {
  const wall = utcMs + ZoneRules.of(zone).offsetAt(utcMs);
  const key = dateKeyOfDay(Math.floor(wall / DAY_MS));
  return `${Math.floor(key / 10_000)}-${pad(Math.floor(key / 100) % 100)}-${pad(key % 100)}`;
}

/** Midnight (start of the local day) of a "YYYY-MM-DD" date in a zone (the first instant of it, if midnight is skipped). */
export function startOfLocalDay(date: string, zone: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (match === null) throw new InvalidInputError(`date "${date}" must be YYYY-MM-DD`, 'date');
  return ZoneRules.of(zone).instantOf(daysFromCivil(Number(match[1]), Number(match[2]), Number(match[3])) * DAY_MS);
}

export function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}
