import net from 'node:net';
import { RabbitMqEventBus } from '../../src/messaging';
import { createRecordingLogger, deleteRabbitTopology, testAmqpUrl, uniqueTestName, waitFor } from '../../src/testing';
import { envelope } from './support';

/** A TCP relay to the real broker that the test can cut, to play a broker outage without stopping RabbitMQ. */
class CuttableProxy {
  private server?: net.Server;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async up(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  async down(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

describe('RabbitMQ event bus when the connection is lost', () => {
  const broker = new URL(testAmqpUrl());
  const proxy = new CuttableProxy({ host: broker.hostname, port: Number(broker.port || 5672) });
  const exchange = uniqueTestName('reconnect');
  const consumer = `${exchange}.consumer`;
  const logger = createRecordingLogger();
  let bus: RabbitMqEventBus;

  beforeAll(async () => {
    await proxy.up();
    const url = new URL(testAmqpUrl());
    url.port = String(proxy.port);
    bus = await RabbitMqEventBus.connect({ url: url.toString(), exchange, logger });
  });
  afterAll(async () => {
    await bus?.close();
    await proxy.down();
    await deleteRabbitTopology({ exchanges: [exchange], consumers: [consumer] });
  });

  it('then publishing fails while it is down, and after reconnecting consumers receive events again', async () => {
    const received: string[] = [];
    await bus.subscribe({ consumer, events: ['incident.*'], handle: async (event) => void received.push(event.id) });
    const before = envelope('incident.created');
    await bus.publish(before);
    await waitFor(() => received.includes(before.id), { what: 'delivery before the outage' });

    await proxy.down();
    await waitFor(() => logger.entries.some((entry) => entry.message.startsWith('RabbitMQ connection lost')), {
      what: 'the disconnect',
    });
    await expect(bus.publish(envelope('incident.updated'))).rejects.toThrow(/not connected/);

    await proxy.up();
    await waitFor(() => logger.entries.some((entry) => entry.message === 'RabbitMQ reconnected'), {
      what: 'the reconnection',
    });
    const after = envelope('incident.updated');
    await bus.publish(after);
    await waitFor(() => received.includes(after.id), { what: 'delivery after the outage' });
  });
});
