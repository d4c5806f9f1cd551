import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Express } from 'express';

/** Serves `app` on 127.0.0.1 at a free port. */
export async function listen(app: Express): Promise<{ server: Server; url: string; close: () => Promise<void> }> {
  const server = await new Promise<Server>((resolve, reject) => {
    const started = app.listen(0, '127.0.0.1', (error?: Error) => (error ? reject(error) : resolve(started)));
  });
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
