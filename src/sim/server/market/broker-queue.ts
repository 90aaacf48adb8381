// Generated broker queues (the replay has none): thirty simulated exchange participants, each with a few broker
// ids, and for every HK security and tick the brokers queued at each of the five synthesised depth levels, drawn
// from a stream seeded by the symbol and the quote's sequence (the same replay always shows the same queues).
// Other markets have no broker queue: their answers are empty, as the service's are.
import { marketOf, type SecuritySymbol } from '../../../domain/symbol.js';
import type { BrokersMessage, ParticipantMessage } from '../../../openapi/socket/messages.js';
import { deriveSeed, SeededRandom } from '../../venue/index.js';
import type { SymbolQuote } from './quote-board.js';

const PARTICIPANT_COUNT = 30;
const DEPTH_LEVELS = 5;

export const PARTICIPANTS: readonly ParticipantMessage[] = Array.from({ length: PARTICIPANT_COUNT }, (_, index) => {
  const number = String(index + 1).padStart(2, '0');
  const first = 1000 + index * 10;
  return {
    brokerIds: Array.from({ length: 1 + (index % 4) }, (_unused, offset) => first + offset),
    participantNameCn: `模拟经纪${number}`,
    participantNameEn: `Simulated Broker ${number}`,
    participantNameHk: `模擬經紀${number}`,
  };
});

const BROKER_IDS = PARTICIPANTS.flatMap((participant) => participant.brokerIds);

export interface BrokerQueues {
  readonly askBrokers: BrokersMessage[];
  readonly bidBrokers: BrokersMessage[];
}

export function brokerQueues(symbol: SecuritySymbol, quote: SymbolQuote | undefined, seed: number): BrokerQueues {
  if (quote === undefined || marketOf(symbol) !== 'HK') return { askBrokers: [], bidBrokers: [] };
  const random = new SeededRandom(deriveSeed(seed, `brokers:${symbol}:${quote.sequence}`));
  const side = (): BrokersMessage[] =>
    Array.from({ length: DEPTH_LEVELS }, (_, index) => ({
      position: index + 1,
      brokerIds: Array.from(
        { length: 1 + Math.floor(random.next() * 5) },
        () => BROKER_IDS[Math.floor(random.next() * BROKER_IDS.length)]!,
      ),
    }));
  return { askBrokers: side(), bidBrokers: side() };
}
