import { RabbitMqEventBus } from '../../src/messaging';
import { withHeartbeat } from '../../src/messaging/rabbitmq-event-bus';
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
import { envelope, publishRaw } from './support';

// Issue 30, item 7: packets to the broker dropped, nothing reset or refused. Only the heartbeat can tell.
describe('RabbitMQ event bus when the broker is black-holed', () => {
  let proxy: TcpProxy;
  const exchange = uniqueTestName('blackhole');
  const consumer = `${exchange}.consumer`;
  const logger = createRecordingLogger();
  let bus: RabbitMqEventBus;

  beforeAll(async () => {
    const url = new URL(testAmqpUrl());
    proxy = await createTcpProxy({ host: url.hostname, port: Number(url.port || 5672) });
    url.port = String(proxy.address.port);
    bus = await RabbitMqEventBus.connect({
      url: url.toString(),
      exchange,
      logger,
      heartbeatSeconds: 1,
      connectTimeoutMs: 1000,
      confirmTimeoutMs: 2000,
    });
  });
  afterAll(async () => {
    await bus?.close();
    await proxy?.close();
    await deleteRabbitTopology({ exchanges: [exchange], consumers: [consumer] });
  });

  it('then the silent connection is taken for lost: publishing fails, readiness fails, and once the network is back every confirmed event is delivered', async () => {
    const received: string[] = [];
    await bus.subscribe({ consumer, events: ['incident.*'], handle: async (event) => void received.push(event.id) });
    const before = envelope('incident.created');
    await bus.publish(before);
    await waitFor(() => received.includes(before.id), { what: 'delivery before the partition' });

    proxy.blackhole();
    // Not held for ever: the publish fails (the outbox keeps such an event and sends it again later).
    await expect(bus.publish(envelope('incident.updated'))).rejects.toThrow(/RabbitMQ/);
    await waitFor(() => logger.entries.some((entry) => entry.message.startsWith('RabbitMQ connection lost')), {
      what: 'the heartbeat to notice the silence',
      timeoutMs: 15_000,
    });
    await expect(eventBusPort.ready!(bus)).rejects.toThrow(/not connected/);

    // Confirmed by the broker while this process cannot reach it: it waits in the consumer's queue.
    const meanwhile = envelope('incident.updated');
    await publishRaw(exchange, meanwhile.name, JSON.stringify(meanwhile));

    await proxy.restore();
    await waitFor(() => logger.entries.some((entry) => entry.message === 'RabbitMQ reconnected'), {
      what: 'the reconnection',
      timeoutMs: 15_000,
    });
    const after = envelope('incident.updated');
    await bus.publish(after);
    await waitFor(() => received.includes(meanwhile.id) && received.includes(after.id), {
      what: 'delivery of what the broker confirmed',
    });
    await expect(eventBusPort.ready!(bus)).resolves.toBeUndefined();
    expect(logger.entries.filter((entry) => entry.level === 'error')).toEqual([]);
  });
});

describe('withHeartbeat', () => {
  it('when the URL names no heartbeat, then it asks for the one given; when it names one, then that one is kept', () => {
    expect(new URL(withHeartbeat('amqp://u:p%40ss@broker:5672/vh', 15)).searchParams.get('heartbeat')).toBe('15');
    expect(withHeartbeat('amqp://u:p%40ss@broker:5672/vh', 15)).toContain('u:p%40ss@');
    expect(withHeartbeat('amqps://broker/vh?heartbeat=30', 15)).toBe('amqps://broker/vh?heartbeat=30');
  });
});
