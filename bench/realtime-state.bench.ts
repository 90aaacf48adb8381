// What the quote connection's local realtime state costs per push: quote pushes of 500 symbols decoded alone,
// then decoded and merged into the state (as QuoteClient does with every push), interleaved over several rounds;
// and a trade push merged into a live 1-minute candle series.
import { Decimal } from '../src/domain/decimal.js';
import { parseSymbol } from '../src/domain/symbol.js';
import { CandleSeries } from '../src/openapi/socket/live-candles.js';
import { messages } from '../src/openapi/socket/messages.js';
import { quoteFromPush, tradesFromPush } from '../src/openapi/socket/quote-mapping.js';
import { RealtimeState } from '../src/openapi/socket/realtime-state.js';

const SYMBOLS = Array.from({ length: 500 }, (_, index) => parseSymbol(`${1000 + index}.HK`));
const PUSHES = 200_000;
const ROUNDS = Number(process.env['BENCH_RUNS'] ?? 5);
const START = Date.parse('2024-01-02T01:30:00Z');

const quoteBodies = SYMBOLS.map((symbol, index) =>
  messages.pushQuote.encode({
    symbol,
    sequence: index,
    lastDone: '300.2',
    open: '299',
    high: '301',
    low: '298',
    timestamp: START / 1000 + index,
    volume: 1000 + index,
    turnover: '300200.5',
    tradeStatus: 0,
    tradeSession: 0,
    currentVolume: 10,
    currentTurnover: '3002',
    tag: 0,
  }),
);

function nsPerPush(merge: boolean): number {
  const state = new RealtimeState();
  const start = performance.now();
  for (let index = 0; index < PUSHES; index++) {
    const quote = quoteFromPush(messages.pushQuote.decode(quoteBodies[index % SYMBOLS.length]!));
    if (merge) state.applyQuote(quote);
  }
  return ((performance.now() - start) * 1e6) / PUSHES;
}

function candleNsPerTrade(): number {
  const symbol = SYMBOLS[0]!;
  const state = new RealtimeState();
  state.addSeries(new CandleSeries(symbol, 'HK', '1m', 'HKEquity', false, []));
  const bodies = Array.from({ length: 600 }, (_, index) =>
    messages.pushTrade.encode({
      symbol,
      sequence: index,
      trade: [
        {
          price: new Decimal(300).plus(index % 7).toFixed(),
          volume: 100,
          timestamp: START / 1000 + index * 6,
          tradeType: '',
          direction: 0,
          tradeSession: 0,
        },
      ],
    }),
  );
  const start = performance.now();
  for (let index = 0; index < PUSHES; index++) state.applyTrades(tradesFromPush(messages.pushTrade.decode(bodies[index % bodies.length]!)));
  return ((performance.now() - start) * 1e6) / PUSHES;
}

export default function run(): void {
  for (let round = 1; round <= ROUNDS; round++) {
    const decoded = nsPerPush(false);
    const merged = nsPerPush(true);
    console.log(
      `round ${round}: quote push decoded ${decoded.toFixed(0).padStart(6)} ns; decoded and merged ${merged.toFixed(0).padStart(6)} ns (state +${(merged - decoded).toFixed(0)} ns)`,
    );
  }
  console.log(`trade push decoded and merged into a live 1-minute candle series: ${candleNsPerTrade().toFixed(0)} ns`);
}
