import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGateway } from '../../src/gateway';

/** Serves `server` on a loopback port; answers its port. */
async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return (server.address() as AddressInfo).port;
}

describe('the e2e gateway (issue 30, item 6)', () => {
  let upstream: http.Server;
  let gateway: http.Server;
  let gatewayPort: number;

  beforeAll(async () => {
    // A download cut half-way: the headers promise 1 MB, half comes, then the connection is destroyed.
    upstream = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(1024 * 1024) });
      res.write(Buffer.alloc(512 * 1024, 1), () => setTimeout(() => res.destroy(), 50));
    });
    const upstreamPort = await listen(upstream);
    gateway = createGateway(() => upstreamPort);
    gatewayPort = await listen(gateway);
  });
  afterAll(async () => {
    gateway.closeAllConnections();
    upstream.closeAllConnections();
    await new Promise((resolve) => gateway.close(resolve));
    await new Promise((resolve) => upstream.close(resolve));
  });

  it('when the upstream aborts mid-answer, then the client sees its answer aborted, not a hang', async () => {
    const outcome = await new Promise<string>((resolve) => {
      const timer = setTimeout(() => resolve('hung'), 5000);
      http
        .get({ host: '127.0.0.1', port: gatewayPort, path: '/api/incident/file/x' }, (answer) => {
          answer.resume();
          answer.on('end', () => resolve('ended'));
          answer.on('aborted', () => resolve('aborted'));
          answer.on('error', () => resolve('aborted'));
        })
        .on('error', () => resolve('aborted'))
        .on('close', () => clearTimeout(timer));
    });
    expect(outcome).toBe('aborted');
  });
});
