// The quote connection's reference questions, answered from generated data over the replayed prices: option
// quotes (12) and chains (20, 21), warrant quotes (13), issuers (22) and the screener (23), broker queues (15)
// and participants (16), and calc indexes (26).
import { parseSymbol } from '../../../domain/symbol.js';
import { RESPONSE_STATUS } from '../../../openapi/socket/codec.js';
import { QUOTE_COMMANDS } from '../../../openapi/socket/commands.js';
import { messages } from '../../../openapi/socket/messages.js';
import { brokerQueues, PARTICIPANTS } from '../market/broker-queue.js';
import type { CalcIndexes } from '../market/calc-indexes.js';
import type { OptionChains } from '../market/option-chain.js';
import type { QuoteBoard } from '../market/quote-board.js';
import type { Underlyings } from '../market/underlyings.js';
import { screenWarrants } from '../market/warrant-list.js';
import { WARRANT_ISSUERS, type Warrants } from '../market/warrants.js';
import { QUOTE_CODES, SocketFailure, type CommandHandler } from './link.js';

export interface ReferenceSources {
  readonly board: QuoteBoard;
  readonly underlyings: Underlyings;
  readonly options: OptionChains;
  readonly warrants: Warrants;
  readonly calcIndexes: CalcIndexes;
  readonly seed: number;
}

const knownSymbol = (sources: ReferenceSources, text: string) => {
  const symbol = parseSymbol(text);
  if (!sources.underlyings.symbols.includes(symbol))
    throw new SocketFailure(RESPONSE_STATUS.badRequest, QUOTE_CODES.invalidRequest, `unknown security "${text}"`);
  return symbol;
};

export function referenceQueries(sources: ReferenceSources): [number, CommandHandler][] {
  const { options, warrants } = sources;
  return [
    [
      QUOTE_COMMANDS.optionQuote,
      (body) => {
        const symbols = messages.multiSecurityRequest.decode(body).symbol;
        return messages.optionQuoteResponse.encode({ secuQuote: symbols.flatMap((symbol) => options.quote(symbol) ?? []) });
      },
    ],
    [
      QUOTE_COMMANDS.warrantQuote,
      (body) => {
        const quotes = messages.multiSecurityRequest.decode(body).symbol.flatMap((symbol) => {
          const warrant = warrants.find(symbol.toUpperCase());
          const figures = warrant === undefined ? undefined : warrants.figures(warrant);
          if (figures === undefined) return [];
          return [
            {
              symbol: figures.warrant.symbol,
              lastDone: String(figures.last),
              prevClose: String(figures.prevClose),
              open: String(figures.open),
              high: String(figures.high),
              low: String(figures.low),
              timestamp: Math.floor(figures.view.time / 1000),
              volume: figures.volume,
              turnover: (figures.volume * figures.last).toFixed(2),
              tradeStatus: 0,
              warrantExtend: warrants.extend(figures),
            },
          ];
        });
        return messages.warrantQuoteResponse.encode({ secuQuote: quotes });
      },
    ],
    [
      QUOTE_COMMANDS.brokers,
      (body) => {
        const symbol = parseSymbol(messages.securityRequest.decode(body).symbol);
        return messages.brokersResponse.encode({ symbol, ...brokerQueues(symbol, sources.board.get(symbol), sources.seed) });
      },
    ],
    [QUOTE_COMMANDS.participants, () => messages.participantsResponse.encode({ participantBrokerNumbers: [...PARTICIPANTS] })],
    [
      QUOTE_COMMANDS.optionChainDates,
      (body) => {
        const symbol = knownSymbol(sources, messages.securityRequest.decode(body).symbol);
        return messages.optionDatesResponse.encode({ expiryDate: options.expiries(symbol).map(String) });
      },
    ],
    [
      QUOTE_COMMANDS.optionChainStrikes,
      (body) => {
        const request = messages.optionStrikesRequest.decode(body);
        const symbol = knownSymbol(sources, request.symbol);
        if (!/^\d{8}$/.test(request.expiryDate))
          throw new SocketFailure(
            RESPONSE_STATUS.badRequest,
            QUOTE_CODES.invalidRequest,
            `expiry_date "${request.expiryDate}" is not YYYYMMDD`,
          );
        return messages.optionStrikesResponse.encode({ strikePriceInfo: options.strikes(symbol, Number(request.expiryDate)) });
      },
    ],
    [QUOTE_COMMANDS.warrantIssuers, () => messages.issuersResponse.encode({ issuerInfo: [...WARRANT_ISSUERS] })],
    [
      QUOTE_COMMANDS.warrantList,
      (body) => {
        const request = messages.warrantListRequest.decode(body);
        const symbol = knownSymbol(sources, request.symbol);
        const figures = warrants.on(symbol).flatMap((warrant) => warrants.figures(warrant) ?? []);
        const { rows, total } = screenWarrants(figures, request.filterConfig);
        return messages.warrantListResponse.encode({ warrantList: rows, totalCount: total });
      },
    ],
    [
      QUOTE_COMMANDS.calcIndexes,
      (body) => {
        const request = messages.calcIndexRequest.decode(body);
        return messages.calcIndexResponse.encode({ securityCalcIndex: sources.calcIndexes.answer(request.symbols, request.calcIndex) });
      },
    ],
  ];
}
