import net, { type AddressInfo, type Socket } from 'node:net';

export interface TcpProxy {
  /** `host:port` to connect to instead of the target. */
  readonly address: { host: string; port: number };
  /** Plays an outage: every open connection is reset and new ones are refused until `restore()`. */
  cut(): Promise<void>;
  /**
   * Plays a black-hole partition: nothing is forwarded either way and nothing is reset or refused, as when packets
   * are dropped; only the client's own timeouts end its wait. `restore()` resets what the hole held.
   */
  blackhole(): void;
  /** Ends the outage: new connections reach the target again. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP proxy on loopback in front of a real server (PostgreSQL, RabbitMQ), for fault tests: cutting it
 * is what a client sees when the server restarts or the network fails, without touching a server that
 * other tests share.
 */
export async function createTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const pairs = new Set<[Socket, Socket]>();
  let server: net.Server | undefined;
  let port = 0;
  let hole = false;

  const hold = (socket: Socket) => {
    socket.unpipe();
    socket.pause();
  };

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const listening = net.createServer((client) => {
        if (hole) {
          // Accepted and never answered: a connection attempt into the hole sees nothing come back.
          sockets.add(client);
          client.on('close', () => sockets.delete(client));
          client.on('error', () => undefined);
          client.pause();
          return;
        }
        const upstream = net.connect(target.port, target.host);
        const pair: [Socket, Socket] = [client, upstream];
        pairs.add(pair);
        client.on('close', () => pairs.delete(pair));
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          // A reset on one side ends the other; the error itself is the fault being played.
          socket.on('error', () => undefined);
        }
        client.pipe(upstream).pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      listening.once('error', reject);
      listening.listen(port, '127.0.0.1', () => {
        port = (listening.address() as AddressInfo).port;
        server = listening;
        resolve();
      });
    });

  const stop = () =>
    new Promise<void>((resolve) => {
      hole = false;
      for (const socket of sockets) {
        // Reset only what can be reset: on a socket still connecting resetAndDestroy() waits for a 'connect' that
        // never comes, and on one whose end() is still flushing libuv refuses the reset while Node marks the handle
        // closing anyway, so it is never closed and the process spins at exit. Those two are closed instead.
        if (socket.connecting || (socket.writableEnded && !socket.writableFinished)) socket.destroy();
        else socket.resetAndDestroy();
      }
      sockets.clear();
      if (!server) return resolve();
      server.close(() => resolve());
      server = undefined;
    });

  await listen();
  return {
    get address() {
      return { host: '127.0.0.1', port };
    },
    cut: stop,
    blackhole() {
      hole = true;
      for (const [client, upstream] of pairs) {
        hold(client);
        hold(upstream);
      }
    },
    async restore() {
      if (hole) await stop();
      if (!server) await listen();
    },
    close: stop,
  };
}
