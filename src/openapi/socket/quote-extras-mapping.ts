// The remaining quote answers as domain values: broker queues (cmd 15, push 103), participants (16), intraday
// lines (18), calc indexes (26) and the quote packages of the profile (cmd 4 field 6).
import { parseDecimal, type Decimal } from '../../domain/decimal.js';
import { parseSymbol, type SecuritySymbol } from '../../domain/symbol.js';
import type {
  BrokersMessage,
  IntradayLineMessage,
  ParticipantMessage,
  PushBrokers,
  SecurityBrokersResponse,
  SecurityCalcIndexMessage,
  UserQuoteLevelDetail,
} from './messages.js';
import { INTEGER_CALC_INDEXES, type CalcIndex } from './reference-enums.js';
import { isoDate } from './reference-data.js';

export interface BrokerQueue {
  /** Depth level, 1 = best. */
  readonly position: number;
  readonly brokerIds: readonly number[];
}

export interface SecurityBrokers {
  readonly symbol: SecuritySymbol;
  /** Increases with every push (0 in a snapshot). */
  readonly sequence: number;
  readonly askBrokers: readonly BrokerQueue[];
  readonly bidBrokers: readonly BrokerQueue[];
}

export interface Participant {
  readonly brokerIds: readonly number[];
  readonly nameCn: string;
  readonly nameEn: string;
  readonly nameHk: string;
}

export interface IntradayLine {
  /** Close of the minute. */
  readonly price: Decimal;
  /** Start of the minute, epoch ms. */
  readonly timestamp: number;
  readonly volume: number;
  readonly turnover: Decimal;
  readonly avgPrice: Decimal;
}

/** The value type of each index: counts are integers, the expiry a YYYY-MM-DD date, the rest decimals. */
export type CalcIndexValue<K extends CalcIndex> = K extends 'volume' | 'outstandingQty' | 'openInterest'
  ? number
  : K extends 'expiryDate'
    ? string
    : Decimal;

/** The requested indexes of one security; one the security does not have is absent. */
export type SecurityCalcIndex = { readonly symbol: string } & { readonly [K in CalcIndex]?: CalcIndexValue<K> };

export interface QuotePackage {
  readonly key: string;
  readonly name: string;
  readonly description: string;
  /** Epoch ms. */
  readonly startAt: number;
  readonly endAt: number;
}

const queue = (message: BrokersMessage): BrokerQueue => ({ position: message.position, brokerIds: message.brokerIds });

export function brokersFromMessage(message: PushBrokers | (SecurityBrokersResponse & { sequence?: number })): SecurityBrokers {
  return {
    symbol: parseSymbol(message.symbol),
    sequence: message.sequence ?? 0,
    askBrokers: message.askBrokers.map(queue),
    bidBrokers: message.bidBrokers.map(queue),
  };
}

export function participantFromMessage(message: ParticipantMessage): Participant {
  return {
    brokerIds: message.brokerIds,
    nameCn: message.participantNameCn,
    nameEn: message.participantNameEn,
    nameHk: message.participantNameHk,
  };
}

export function intradayLineFromMessage(message: IntradayLineMessage): IntradayLine {
  return {
    price: parseDecimal(message.price, 'price'),
    timestamp: message.timestamp * 1000,
    volume: message.volume,
    turnover: parseDecimal(message.turnover || '0', 'turnover'),
    avgPrice: parseDecimal(message.avgPrice || '0', 'avg_price'),
  };
}

export function calcIndexFromMessage(message: SecurityCalcIndexMessage, indexes: readonly CalcIndex[]): SecurityCalcIndex {
  const row: Record<string, unknown> = { symbol: message.symbol };
  for (const index of indexes) {
    const value = message[index];
    if (INTEGER_CALC_INDEXES.has(index)) row[index] = Number(value ?? 0);
    else if (typeof value === 'string' && value.trim() !== '')
      row[index] = index === 'expiryDate' ? isoDate(value) : parseDecimal(value, index);
  }
  return row as SecurityCalcIndex;
}

export function quotePackagesFromDetail(detail: UserQuoteLevelDetail | null | undefined): QuotePackage[] {
  return Object.values(detail?.byPackageKey ?? {}).map((entry) => ({
    key: entry.key,
    name: entry.name,
    description: entry.description,
    startAt: entry.start * 1000,
    endAt: entry.end * 1000,
  }));
}
