import { filter, firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/clock/virtual-clock.js';
import type { Candle } from '../../../src/domain/candle.js';
import { LiveMarketData } from '../../../src/feeds/live/live-market-data.js';
import { QUOTE_COMMANDS } from '../../../src/openapi/socket/commands.js';
import { messages } from '../../../src/openapi/socket/messages.js';
import { QuoteClient } from '../../../src/openapi/socket/quote-client.js';
import { HK, quoteOf, REPLAY, serviceMinuteBar as bar } from '../../support/socket/quote-fixtures.js';
import { QuoteTestService } from '../../support/socket/quote-test-service.js';
import { SocketTestServer } from '../../support/socket/socket-test-server.js';
import { stateOf } from '../../support/socket/wait.js';

let server: SocketTestServer;
let client: QuoteClient;

afterEach(async () => {
  await client.close();
  await server.stop();
});

describe('live candles over the quote connection', () => {
  it('fills the bars a dead link missed from cmd 19 and carries on from the pushes, with no gap', async () => {
    const clock = new VirtualClock(Date.UTC(2026, 10, 22, 2));
    server = await SocketTestServer.start({ now: () => clock.now() });
    const candles: Record<string, Candle[]> = { '700.HK': [] };
    const service = new QuoteTestService(server, { candles });
    client = await QuoteClient.connect({ url: server.url, clock, otp: async () => ({ otp: 'otp', limit: 1, online: 0 }) });
    const data = new LiveMarketData(client, { clock });
    const bars: Candle[] = [];
    const stream = data.candles(HK, '1m');
    stream.subscribe((candle) => bars.push(candle));
    await server.until(() => service.subscribedSymbols().includes('700.HK'));
    // The bar under way is asked for once subscribed (there is none yet); the pushes below come after the answer.
    await server.until(() => server.requestsFor(QUOTE_COMMANDS.candlesticks).length === 1);

    const seen = firstValueFrom(data.quotes(HK).pipe(filter((quote) => quote.volume === 150)));
    service.pushQuote({ ...quoteOf(HK, '10', REPLAY, 100), currentVolume: 100 });
    service.pushQuote(quoteOf(HK, '10.2', REPLAY + 20_000, 150));
    await seen;

    // The link goes silent: no pings, no pushes. Bar 0 closes on time; the client notices after 120 s.
    candles['700.HK'] = [bar(0, 10.4, 400), bar(1, 10.5, 500), bar(2, 10.6, 50)];
    const reconnecting = stateOf(client.state$, 'reconnecting');
    await clock.advanceByAsync(120_000);
    await reconnecting;
    expect(bars.map((candle) => [candle.time - REPLAY, candle.volume])).toEqual([[0, 150]]);

    const filled = firstValueFrom(stream.pipe(filter((candle) => candle.time === REPLAY + 60_000)));
    await clock.advanceByAsync(2_000);
    await filled;
    const request = messages.candlestickRequest.decode(server.requestsFor(QUOTE_COMMANDS.candlesticks).at(-1)!.packet.body);
    expect(request).toMatchObject({ symbol: '700.HK', period: 1, count: 5 });

    service.pushQuote({ ...quoteOf(HK, '10.9', REPLAY + 150_000, 2_100), currentVolume: 20 });
    service.pushQuote(quoteOf(HK, '10.8', REPLAY + 180_000, 2_200));
    const closed = await firstValueFrom(stream.pipe(filter((candle) => candle.time === REPLAY + 120_000)));
    expect(closed).toMatchObject({ open: 10, high: 11, low: 9, close: 10.9, volume: 70 });
    expect(bars.map((candle) => (candle.time - REPLAY) / 60_000)).toEqual([0, 1, 2]);
  });
});
