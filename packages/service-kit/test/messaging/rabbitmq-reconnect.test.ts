import { RabbitMqEventBus } from '../../src/messaging';
import { eventBusPort } from '../../src/messaging/event-bus-port';
import {
  createRecordingLogger,
  createTcpProxy,
  deleteRabbitTopology,
  testAmqpUrl,
  uniqueTestName,
  waitFor,
  type TcpProxy,
} from '../../src/testing';
import { envelope } from './support';

describe('RabbitMQ event bus when the connection is lost', () => {
  let proxy: TcpProxy;
  const exchange = uniqueTestName('reconnect');
  const consumer = `${exchange}.consumer`;
  const logger = createRecordingLogger();
  let bus: RabbitMqEventBus;

  beforeAll(async () => {
    const url = new URL(testAmqpUrl());
    proxy = await createTcpProxy({ host: url.hostname, port: Number(url.port || 5672) });
    url.port = String(proxy.address.port);
    bus = await RabbitMqEventBus.connect({ url: url.toString(), exchange, logger });
  });
  afterAll(async () => {
    await bus?.close();
    await proxy?.close();
    await deleteRabbitTopology({ exchanges: [exchange], consumers: [consumer] });
  });

  it('then publishing fails and readiness fails while it is down, the outage is logged once, and after reconnecting consumers receive events again', async () => {
    const received: string[] = [];
    await bus.subscribe({ consumer, events: ['incident.*'], handle: async (event) => void received.push(event.id) });
    const before = envelope('incident.created');
    await bus.publish(before);
    await waitFor(() => received.includes(before.id), { what: 'delivery before the outage' });

    await expect(eventBusPort.ready!(bus)).resolves.toBeUndefined();

    await proxy.cut();
    await waitFor(() => logger.entries.some((entry) => entry.message.startsWith('RabbitMQ connection lost')), {
      what: 'the disconnect',
    });
    await expect(bus.publish(envelope('incident.updated'))).rejects.toThrow(/not connected/);
    await expect(eventBusPort.ready!(bus)).rejects.toThrow(/not connected/);
    // Reconnection attempts go on every few seconds; they are not each a warning.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(logger.entries.filter((entry) => entry.level === 'warn' || entry.level === 'error')).toHaveLength(1);

    await proxy.restore();
    await waitFor(() => logger.entries.some((entry) => entry.message === 'RabbitMQ reconnected'), {
      what: 'the reconnection',
    });
    const after = envelope('incident.updated');
    await bus.publish(after);
    await waitFor(() => received.includes(after.id), { what: 'delivery after the outage' });
    await expect(eventBusPort.ready!(bus)).resolves.toBeUndefined();
  });
});
