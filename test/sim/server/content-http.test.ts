import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../../src/openapi/config.js';
import { createOpenApiHttp } from '../../../src/openapi/http/client.js';
import { HK } from '../../support/sim/candles.js';
import { startSimHarness, type SimHarness } from '../../support/sim/harness.js';
import { rawCall } from '../../support/sim/raw-request.js';
import { Quantity } from '../../../src/domain/index.js';

let h: SimHarness;

beforeEach(async () => {
  h = await startSimHarness({ venue: { stockNames: { '700.HK': 'TENCENT' } } });
});

afterEach(async () => {
  await h.close();
});

describe('envelopes', () => {
  it('carries code, message, msg and a non-null data, with an x-trace-id on every response', async () => {
    const answer = await rawCall(h.sim, { path: '/v1/watchlist/groups' });
    expect(answer.json).toMatchObject({ code: 0, message: 'success', msg: 'success' });
    expect(answer.json?.['data']).not.toBeNull();
    const refused = await rawCall(h.sim, { path: '/v1/no/such/thing' });
    expect([refused.status, refused.json?.['code'], refused.json?.['msg'], refused.json?.['data']]).toEqual([
      404,
      404001,
      'no such interface: GET /v1/no/such/thing',
      {},
    ]);
    expect(answer.traceId).toMatch(/^sim-[0-9a-f]{8}$/);
    expect(refused.traceId).not.toBe(answer.traceId);
  });

  it('accepts a bare "?" and a fractional timestamp, as older SDKs send them', async () => {
    const answer = await rawCall(h.sim, { path: '/v1/asset/account', bareQuery: true, timestamp: '1717372800.123' });
    expect(answer.json?.['code']).toBe(0);
  });
});

describe('watchlist and security list', () => {
  it('lists the simulated symbols as one watchlist group', async () => {
    const [group] = await h.http.watchlist();
    expect(group!.securities.map((security) => [security.symbol, security.market, security.name])).toEqual([
      ['700.HK', 'HK', 'TENCENT'],
      ['AAPL.US', 'US', 'AAPL'],
    ]);
  });

  it('fills in only the names of the language asked for', async () => {
    const chinese = await rawCall(h.sim, {
      path: '/v1/quote/get_security_list',
      query: 'market=HK&category=Overnight',
      headers: { 'accept-language': 'zh-HK' },
    });
    expect((chinese.json!['data'] as { list: unknown[] }).list).toEqual([
      { symbol: '700.HK', name_cn: '', name_hk: 'TENCENT', name_en: '' },
    ]);
    const english = await h.http.securities({ market: 'US', language: 'en' });
    expect(english.map((security) => [security.symbol, security.nameEn, security.nameHk])).toEqual([['AAPL.US', 'AAPL', '']]);
  });
});

describe('statements', () => {
  it('lists a daily statement for each market day with executions and serves its download', async () => {
    h.stepUntil((tick) => tick.symbol === HK);
    await h.http.submitOrder({ symbol: HK, side: 'Buy', orderType: 'MO', quantity: Quantity.of(100), timeInForce: 'Day' });
    h.step();
    expect(await h.http.statements({ type: 'daily' })).toEqual([{ date: 20240102, fileKey: 'daily-20240102' }]);
    expect(await h.http.statements({ type: 'monthly' })).toEqual([{ date: 202401, fileKey: 'monthly-202401' }]);
    const { url } = await h.http.statementDownloadUrl('daily-20240102');
    const document = (await (await fetch(url)).json()) as { executions: { symbol: string; quantity: string }[] };
    expect(document.executions.map((execution) => [execution.symbol, execution.quantity])).toEqual([['700.HK', '100']]);
  });
});

describe('community topics', () => {
  it('creates a topic and a reply and reads both back', async () => {
    const { id } = await h.http.createTopic({ title: 'Replay notes', body: 'Filled at the open.', tickers: ['700.HK'] });
    await h.http.createTopicReply(id, { body: 'Same here' });
    const topic = await h.http.topicDetail(id);
    expect([topic.title, topic.body, topic.tickers, topic.commentsCount]).toEqual(['Replay notes', 'Filled at the open.', ['700.HK'], 1]);
    expect((await h.http.topicReplies(id)).map((reply) => [reply.body, reply.topicId, reply.replyToId])).toEqual([['Same here', id, '0']]);
    expect((await h.http.myTopics()).map((mine) => mine.id)).toEqual([id]);
  });

  it('answers an unknown topic with 404001', async () => {
    await expect(h.http.topicDetail('42')).rejects.toMatchObject({ serviceCode: 404001 });
  });
});

describe('tokens', () => {
  it('refreshes the access token, and the new token is accepted', async () => {
    const refreshed = await h.http.refreshToken(h.clock.now() + 30 * 86_400_000);
    expect(refreshed.expiresAt).toBe(Math.floor((h.clock.now() + 30 * 86_400_000) / 1000) * 1000);
    const client = createOpenApiHttp(configFromEnv({ ...h.sim.env, LONGPORT_ACCESS_TOKEN: refreshed.token }), { clock: h.clock });
    try {
      expect((await client.accountBalance()).length).toBe(2);
    } finally {
      await client.close();
    }
  });

  it('issues a fresh one-time socket token each time with the connection counts', async () => {
    const first = await h.http.socketToken();
    const second = await h.http.socketToken();
    expect(first.otp).not.toBe(second.otp);
    expect([first.limit, first.online]).toEqual([10, 0]);
  });
});

describe('watchlist groups', () => {
  it('keeps the "all" group, and names a group that does not exist', async () => {
    await expect(h.http.deleteWatchlistGroup(1)).rejects.toMatchObject({ serviceCode: 400001 });
    await expect(h.http.updateWatchlistGroup({ id: 99, name: 'x' })).rejects.toMatchObject({ serviceCode: 404001 });
    const refused = await rawCall(h.sim, { method: 'POST', path: '/v1/watchlist/groups', body: '{"securities":["700.HK"]}' });
    expect(refused.json?.['msg']).toBe('invalid parameter: name is missing');
    expect((await h.http.watchlist()).map((group) => group.name)).toEqual(['all']);
  });
});
