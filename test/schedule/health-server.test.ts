import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { startHealthServer, type HealthServer } from '../../src/schedule/health-server.js';
import { statusHarness } from '../support/schedule/harness.js';

let server: HealthServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function get(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await request(url);
  return { status: response.statusCode, body: (await response.body.json()) as Record<string, unknown> };
}

describe('health endpoint over real HTTP', () => {
  it('serves the status snapshot as JSON on 127.0.0.1', async () => {
    const { scheduler, collect } = statusHarness('2024-03-04T01:00:00Z');
    await scheduler.start();
    server = await startHealthServer({ port: 0, status: collect });

    const health = await get(`${server.url}/health`);
    const status = await get(`${server.url}/status`);

    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ version: 1, healthy: true, link: 'up' });
    expect((status.body['jobs'] as { name: string; next: { local: string } }[]).map((job) => `${job.name} ${job.next.local}`)).toEqual([
      'hk-trend 2024-03-04T09:30:00+08:00',
      'hk-data 2024-03-04T18:00:00+08:00',
    ]);
    scheduler.stop();
  });

  it('answers 503 on /health while new orders are halted by an outage, and 200 again once reconciled', async () => {
    const { clock, link, collect } = statusHarness('2024-03-04T01:00:00Z');
    server = await startHealthServer({ port: 0, status: collect });
    link.linkDown();
    await clock.advanceByAsync(60_000);

    const halted = await get(`${server.url}/health`);
    const statusWhileHalted = await get(`${server.url}/status`);
    link.linkUp();
    link.reconciled();
    const recovered = await get(`${server.url}/health`);

    expect(halted).toMatchObject({ status: 503, body: { healthy: false, link: 'halted' } });
    expect(statusWhileHalted.status).toBe(200);
    expect(recovered).toMatchObject({ status: 200, body: { healthy: true, link: 'up' } });
  });

  it('names --health-port when its port is taken, a failure of the moment (PORT_IN_USE, exit status 1) rather than bad input', async () => {
    const { collect } = statusHarness('2024-03-04T01:00:00Z');
    server = await startHealthServer({ port: 0, status: collect });

    const taken = startHealthServer({ port: server.port, status: collect });

    await expect(taken).rejects.toMatchObject({
      code: 'PORT_IN_USE',
      message: `port ${server.port} on 127.0.0.1 is already in use: pick another with --health-port (0 picks a free one)`,
    });
  });

  it('answers 404 for unknown paths and 405 for other methods', async () => {
    const { collect } = statusHarness('2024-03-04T01:00:00Z');
    server = await startHealthServer({ port: 0, status: collect });

    const missing = await get(`${server.url}/metrics`);
    const post = await request(`${server.url}/health`, { method: 'POST' });
    await post.body.dump();

    expect(missing).toEqual({ status: 404, body: { error: 'no route /metrics; try /health or /status' } });
    expect(post.statusCode).toBe(405);
  });

  it('answers 500 with the reason when the snapshot cannot be built', async () => {
    server = await startHealthServer({ port: 0, status: async () => Promise.reject(new Error('state unavailable')) });
    expect(await get(`${server.url}/status`)).toEqual({ status: 500, body: { error: 'state unavailable' } });
  });
});
