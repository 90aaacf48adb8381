// The two quote messages the shared codec (src/openapi/socket/messages.ts) does not cover yet: recent trades
// (cmd 17) and intraday lines (cmd 18), with the field numbers of the service's quote/api.proto.
import protobuf from 'protobufjs';
import type { MessageCodec, TradeMessage } from '../../../openapi/socket/messages.js';
import { PacketDecodeError } from '../../../openapi/socket/errors.js';

const SCHEMA = `
syntax = "proto3";
package longport.sim;
message SecurityTradeRequest { string symbol = 1; int32 count = 2; }
message Trade { string price = 1; int64 volume = 2; int64 timestamp = 3; string trade_type = 4; int32 direction = 5; int32 trade_session = 6; }
message SecurityTradeResponse { string symbol = 1; repeated Trade trades = 2; }
message SecurityIntradayRequest { string symbol = 1; int32 trade_session = 2; }
message Line { string price = 1; int64 timestamp = 2; int64 volume = 3; string turnover = 4; string avg_price = 5; }
message SecurityIntradayResponse { string symbol = 1; repeated Line lines = 2; }
`;

const root = protobuf.parse(SCHEMA, { keepCase: false }).root;

function codec<T>(name: string): MessageCodec<T> {
  const type = root.lookupType(`longport.sim.${name}`);
  return {
    name,
    encode: (value) => type.encode(type.fromObject(value as Record<string, unknown>)).finish(),
    decode: (bytes) => {
      try {
        return type.toObject(type.decode(bytes), { longs: Number, defaults: true, arrays: true }) as T;
      } catch (error) {
        throw new PacketDecodeError(`${name} body does not decode (${(error as Error).message})`);
      }
    },
  };
}

export interface SecurityTradeRequest {
  readonly symbol: string;
  readonly count: number;
}
export interface SecurityTradeResponse {
  readonly symbol: string;
  readonly trades: readonly TradeMessage[];
}
export interface SecurityIntradayRequest {
  readonly symbol: string;
  readonly tradeSession: number;
}
export interface IntradayLineMessage {
  readonly price: string;
  readonly timestamp: number;
  readonly volume: number;
  readonly turnover: string;
  readonly avgPrice: string;
}
export interface SecurityIntradayResponse {
  readonly symbol: string;
  readonly lines: readonly IntradayLineMessage[];
}

export const extraMessages = {
  tradeRequest: codec<SecurityTradeRequest>('SecurityTradeRequest'),
  tradeResponse: codec<SecurityTradeResponse>('SecurityTradeResponse'),
  intradayRequest: codec<SecurityIntradayRequest>('SecurityIntradayRequest'),
  intradayResponse: codec<SecurityIntradayResponse>('SecurityIntradayResponse'),
} as const;
