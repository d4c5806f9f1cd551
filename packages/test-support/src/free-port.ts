import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';

// Ports below Linux's ephemeral range (ip_local_port_range, 32768–60999; macOS and Windows start at 49152). A port
// the OS picks with listen(0) comes from that range, and in the seconds before the service it is meant for binds it,
// any process's outgoing connection (to PostgreSQL, RabbitMQ, another service) may take it as its local port: the
// service then fails with EADDRINUSE. Ports below the range are never handed out that way.
const LOWEST = 20000;
const HIGHEST = 32000;
const handedOut = new Set<number>();

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    // No host, as the services listen: every address, IPv6 and IPv4, so a port taken on either is refused here.
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

/** A TCP port free a moment ago, outside the range outgoing connections draw from, never handed out twice. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = randomInt(LOWEST, HIGHEST);
    if (handedOut.has(port)) continue;
    if (await canListen(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free TCP port between ${LOWEST} and ${HIGHEST} after 100 tries`);
}
