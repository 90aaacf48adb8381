import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSymbol } from '../../../src/domain/symbol.js';
import { PacketDecodeError } from '../../../src/openapi/socket/errors.js';
import { messages } from '../../../src/openapi/socket/messages.js';
import { periodCode, periodFromCode } from '../../../src/openapi/socket/periods.js';
import { candleFromMessage, quoteFromPush, pushFromQuote, staticInfoFromMessage } from '../../../src/openapi/socket/quote-mapping.js';
import { PERIODS } from '../../../src/domain/period.js';

describe('protobuf messages', () => {
  it('writes field numbers as PROTOCOL.md lists them (AuthRequest token=1, metadata=2)', () => {
    const bytes = messages.authRequest.encode({ token: 'otp', metadata: { a: 'b' } });
    // field 1 string: tag 0x0a; field 2 map entry: tag 0x12
    expect(Buffer.from(bytes).toString('hex')).toBe('0a036f7470' + '1206' + '0a0161' + '120162');
  });

  it('round-trips a quote push and maps it to a decimal-exact domain quote in epoch ms', () => {
    const push = {
      symbol: '700.HK',
      sequence: 12,
      lastDone: '388.20',
      open: '380',
      high: '390.4',
      low: '379.8',
      timestamp: 1_700_000_000,
      volume: 123_456_789,
      turnover: '47920000000.5',
      tradeStatus: 0,
      tradeSession: 2,
      currentVolume: 100,
      currentTurnover: '38820',
      tag: 0,
    };
    const decoded = messages.pushQuote.decode(messages.pushQuote.encode(push));
    expect(decoded).toEqual(push);
    const quote = quoteFromPush(decoded);
    expect(quote.lastDone.toFixed()).toBe('388.2');
    expect(quote.turnover.toFixed()).toBe('47920000000.5');
    expect(quote.timestamp).toBe(1_700_000_000_000);
    expect(quote.tradeSession).toBe('post');
    expect(pushFromQuote(quote)).toEqual({ ...push, lastDone: '388.2' });
  });

  it('keeps the board of static info and reads share counts as integers', () => {
    const info = {
      symbol: '700.HK',
      nameCn: '腾讯控股',
      nameEn: 'TENCENT',
      nameHk: '騰訊控股',
      listingDate: '20040616',
      exchange: 'SEHK',
      currency: 'HKD',
      lotSize: 100,
      totalShares: 9_500_000_000,
      circulatingShares: 9_400_000_000,
      hkShares: 9_400_000_000,
      eps: '19.7',
      epsTtm: '20.1',
      bps: '120.3',
      dividendYield: '0.6',
      stockDerivatives: [2],
      board: 'HKEquity',
    };
    const decoded = messages.staticInfoResponse.decode(messages.staticInfoResponse.encode({ secuStaticInfo: [info] }));
    const mapped = staticInfoFromMessage(decoded.secuStaticInfo[0]!);
    expect(mapped).toMatchObject({ symbol: '700.HK', board: 'HKEquity', totalShares: 9_500_000_000, lotSize: 100, stockDerivatives: [2] });
    expect(mapped.eps.toFixed()).toBe('19.7');
  });

  it('maps candlesticks (timestamp in seconds) to candles stamped in ms', () => {
    const candle = candleFromMessage(
      { open: '10.5', high: '11', low: '10', close: '10.75', volume: 1000, turnover: '10500', timestamp: 1_577_894_400, tradeSession: 0 },
      parseSymbol('700.HK'),
      'day',
    );
    expect(candle).toEqual({
      symbol: '700.HK',
      period: 'day',
      time: 1_577_894_400_000,
      open: 10.5,
      high: 11,
      low: 10,
      close: 10.75,
      volume: 1000,
      turnover: 10500,
    });
  });

  it('maps every period to the service code and back', () => {
    for (const period of PERIODS) expect(periodFromCode(periodCode(period))).toBe(period);
    expect(periodCode('day')).toBe(1000);
    expect(periodCode('quarter')).toBe(3500);
  });

  it('rejects garbage bodies with PacketDecodeError, never another error', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        for (const codec of [messages.pushQuote, messages.pushDepth, messages.candlestickResponse, messages.subResponse]) {
          try {
            codec.decode(bytes);
          } catch (error) {
            expect(error).toBeInstanceOf(PacketDecodeError);
          }
        }
      }),
      { numRuns: 2_000 },
    );
  });
});
