import { once } from 'node:events';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CatalogHarness, TOKEN } from './harness.js';

const harness = new CatalogHarness();
afterEach(() => harness.cleanup());

function postArtist(host: string, body: string): string {
  return [
    'POST /api/v1/artists HTTP/1.1',
    `Host: ${host}`,
    `Authorization: Bearer ${TOKEN}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    '',
    '',
  ].join('\r\n');
}

describe('catalog shutdown', () => {
  it('finishes a request in flight when closing, refuses the next one in the error shape, and keeps the data', async () => {
    const catalog = await harness.start();
    const { port, address } = catalog.server.app.server.address() as { port: number; address: string };
    const socket = connect(port, address);
    let received = '';
    socket.on('data', (chunk) => (received += String(chunk)));
    await once(socket, 'connect');
    const body = JSON.stringify({ name: 'Los Abuelos de la Nada' });
    const routed = once(catalog.server.app.server, 'request');

    socket.write(postArtist(address, body) + body.slice(0, 10));
    await routed;
    const closed = catalog.stop();
    socket.write(body.slice(10) + postArtist(address, body) + body);
    await Promise.all([closed, once(socket, 'close')]);

    const statuses = [...received.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => Number(match[1]));
    expect(statuses).toEqual([201, 503]);
    expect(received).toContain('"error":"shutting_down"');
    const reopened = await catalog.restart();
    const listed = await reopened.call('GET', '/artists');
    expect(listed.body.data.map((artist: { name: string }) => artist.name)).toEqual(['Los Abuelos de la Nada']);
  });
});
