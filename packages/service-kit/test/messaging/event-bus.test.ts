/* eslint-disable max-lines -- the EventBus contract, run alike on both adapters, with their own edges. */
import type { EventEnvelope } from '@whistle/contracts';
import {
  InProcessEventBus,
  RabbitMqEventBus,
  UnprocessableEventError,
  consumerQueues,
  deliveryAttempt,
  type EventBus,
} from '../../src/messaging';
import {
  createRecordingLogger,
  deleteRabbitTopology,
  testAmqpUrl,
  uniqueTestName,
  waitFor,
  type RecordingLogger,
} from '../../src/testing';
import { drainQueue, envelope, PAYLOAD_MARKER, publishRaw } from './support';

interface Harness {
  bus: EventBus;
  /** Ids of the events dead-lettered for `consumer` so far (RabbitMQ: read from its DLQ). */
  deadLetterIds(consumer: string): Promise<string[]>;
  dispose(): Promise<void>;
}

const MAX_ATTEMPTS = 3;
const run = uniqueTestName('bus');

const adapters: { name: string; open: (logger: RecordingLogger) => Promise<Harness> }[] = [
  {
    name: 'in-process',
    open: async (logger) => {
      const bus = new InProcessEventBus({ logger, maxAttempts: MAX_ATTEMPTS, retryDelayMs: 5 });
      return {
        bus,
        deadLetterIds: async (consumer) =>
          bus.deadLetters.filter((d) => d.consumer === consumer).map((d) => d.event.id),
        dispose: () => bus.close(),
      };
    },
  },
  {
    name: 'RabbitMQ',
    open: async (logger) => {
      const exchange = `${run}.events`;
      const bus = await RabbitMqEventBus.connect({
        url: testAmqpUrl(),
        exchange,
        logger,
        maxAttempts: MAX_ATTEMPTS,
        retryDelayMs: 50,
      });
      const consumers = new Set<string>();
      const originalSubscribe = bus.subscribe.bind(bus);
      bus.subscribe = (subscription) => {
        consumers.add(subscription.consumer);
        return originalSubscribe(subscription);
      };
      const seen = new Map<string, string[]>();
      return {
        bus,
        deadLetterIds: async (consumer) => {
          const bodies = await drainQueue(consumerQueues(exchange, consumer).dlq);
          const ids = seen.get(consumer) ?? [];
          ids.push(...bodies.map((body) => (body.startsWith('{') ? (JSON.parse(body) as EventEnvelope).id : body)));
          seen.set(consumer, ids);
          return ids;
        },
        dispose: async () => {
          await bus.close();
          await deleteRabbitTopology({ exchanges: [exchange], consumers: [...consumers] });
        },
      };
    },
  },
];

describe.each(adapters)('$name event bus', ({ name, open }) => {
  let logger: RecordingLogger;
  let harness: Harness;
  let bus: EventBus;
  const consumer = (label: string) => `${run}.${label}`;

  beforeAll(async () => {
    logger = createRecordingLogger();
    harness = await open(logger);
    bus = harness.bus;
  });
  afterAll(() => harness?.dispose());

  it('when events are published, then each consumer receives those matching its topic patterns', async () => {
    const received: Record<string, string[]> = { a: [], b: [], c: [] };
    const subscribe = (label: string, events: string[]) =>
      bus.subscribe({
        consumer: consumer(`route-${label}`),
        events: [...events, 'test.done'],
        handle: async (e) => void received[label]!.push(e.name),
      });
    await subscribe('a', ['incident.*']);
    await subscribe('b', ['#.created']);
    await subscribe('c', ['user.created']);

    for (const eventName of [
      'incident.created',
      'incident.message.created',
      'user.created',
      'company.updated',
      'test.done',
    ]) {
      await bus.publish(envelope(eventName));
    }
    await waitFor(() => Object.values(received).every((names) => names.includes('test.done')), {
      what: 'test.done at every consumer',
    });

    expect(received).toEqual({
      a: ['incident.created', 'test.done'],
      b: ['incident.created', 'incident.message.created', 'user.created', 'test.done'],
      c: ['user.created', 'test.done'],
    });
  });

  it('when a handler receives an event, then it gets the envelope as published', async () => {
    const event = envelope('incident.updated', { incident_id: 'i-1', status: 'CLOSED' });
    let got: EventEnvelope | undefined;
    await bus.subscribe({
      consumer: consumer('shape'),
      events: ['incident.updated'],
      handle: async (e) => void (got = e),
    });
    await bus.publish(event);
    expect(await waitFor(() => got, { what: 'delivery' })).toEqual(event);
  });

  it('when a handler fails once, then the event is retried and handled', async () => {
    const event = envelope('incident.deadline');
    let calls = 0;
    await bus.subscribe({
      consumer: consumer('flaky'),
      events: ['incident.deadline'],
      handle: async () => {
        calls += 1;
        if (calls === 1) throw new Error('database hiccup');
      },
    });
    await bus.publish(event);
    await waitFor(() => calls === 2, { what: 'the retry' });
    expect(await harness.deadLetterIds(consumer('flaky'))).toEqual([]);
  });

  it('when a handler keeps failing, then it is tried a bounded number of times and dead-lettered, and no payload is logged', async () => {
    const event = envelope('incident.file.created');
    let calls = 0;
    await bus.subscribe({
      consumer: consumer('broken'),
      events: ['incident.file.created'],
      handle: async () => {
        calls += 1;
        throw new Error('always fails');
      },
    });
    await bus.publish(event);
    expect(
      await waitFor(async () => (await harness.deadLetterIds(consumer('broken'))).length > 0, {
        what: 'the dead letter',
      }),
    ).toBe(true);
    expect(await harness.deadLetterIds(consumer('broken'))).toEqual([event.id]);
    expect(calls).toBe(MAX_ATTEMPTS);

    const deadLetterLog = logger.entries.find(
      (entry) => entry.message === 'Event dead-lettered' && entry.fields.eventId === event.id,
    );
    expect(deadLetterLog?.fields).toMatchObject({
      consumer: consumer('broken'),
      eventName: 'incident.file.created',
      attempt: MAX_ATTEMPTS,
    });
    expect(JSON.stringify(logger.entries)).not.toContain(PAYLOAD_MARKER);
  });

  it('when a handler says the event is unprocessable, then it is dead-lettered without retries', async () => {
    const event = envelope('company.updated');
    let calls = 0;
    await bus.subscribe({
      consumer: consumer('picky'),
      events: ['company.updated'],
      handle: async () => {
        calls += 1;
        throw new UnprocessableEventError('unknown version');
      },
    });
    await bus.publish(event);
    await waitFor(async () => (await harness.deadLetterIds(consumer('picky'))).length > 0, { what: 'the dead letter' });
    expect(calls).toBe(1);
  });

  it('when a consumer name is subscribed twice, then the second subscription is refused', async () => {
    await bus.subscribe({ consumer: consumer('twice'), events: ['x.y'], handle: async () => undefined });
    await expect(
      bus.subscribe({ consumer: consumer('twice'), events: ['x.y'], handle: async () => undefined }),
    ).rejects.toThrow(/already subscribed/);
  });

  it('when an event does not fit the envelope schema, then publish refuses it', async () => {
    await expect(bus.publish({ ...envelope('incident.created'), id: 'not-a-uuid' })).rejects.toThrow();
  });

  if (name === 'in-process') {
    it('when publishing, then handlers never run inside the publisher call', async () => {
      let ran = false;
      await bus.subscribe({
        consumer: consumer('async'),
        events: ['async.check'],
        handle: async () => void (ran = true),
      });
      const publishing = bus.publish(envelope('async.check'));
      expect(ran).toBe(false);
      await publishing;
      await waitFor(() => ran, { what: 'the delivery' });
    });

    it('when publish resolves, then every consumer has handled the event, so the outbox marks it published only then', async () => {
      let handled = false;
      await bus.subscribe({
        consumer: consumer('confirm'),
        events: ['confirm.check'],
        handle: async () => {
          await new Promise((resolve) => setTimeout(resolve, 50));
          handled = true;
        },
      });
      await bus.publish(envelope('confirm.check'));
      expect(handled).toBe(true);
    });
  }

  if (name === 'RabbitMQ') {
    it('when a malformed message arrives, then it goes straight to the DLQ and the handler never sees it', async () => {
      let calls = 0;
      await bus.subscribe({
        consumer: consumer('malformed'),
        events: ['incident.created'],
        handle: async () => void (calls += 1),
      });
      await publishRaw(`${run}.events`, 'incident.created', 'not json at all');
      await waitFor(async () => (await harness.deadLetterIds(consumer('malformed'))).includes('not json at all'), {
        what: 'the malformed message in the DLQ',
      });
      expect(calls).toBe(0);
    });

    it('when a failing event carries an attempt header that is not a number, then it is still retried a bounded number of times and dead-lettered', async () => {
      const event = envelope('incident.created');
      let calls = 0;
      await bus.subscribe({
        consumer: consumer('poison'),
        events: ['incident.created'],
        handle: async () => {
          calls += 1;
          throw new Error('invalid input syntax for type timestamp with time zone');
        },
      });
      await publishRaw(`${run}.events`, 'incident.created', JSON.stringify(event), { 'x-whistle-attempt': 'NaN?' });
      expect(
        await waitFor(async () => (await harness.deadLetterIds(consumer('poison'))).includes(event.id), {
          what: 'the poison message in the DLQ',
        }),
      ).toBe(true);
      expect(calls).toBe(MAX_ATTEMPTS);
    });
  }
});

describe('RabbitMQ queues of two deployments on one broker', () => {
  it('when two exchanges have a consumer of the same name, then each receives only its own deployment’s events', async () => {
    const logger = createRecordingLogger();
    const exchanges = [uniqueTestName('deployment-a'), uniqueTestName('deployment-b')];
    const buses = await Promise.all(
      exchanges.map((exchange) => RabbitMqEventBus.connect({ url: testAmqpUrl(), exchange, logger })),
    );
    const received: string[][] = [[], []];
    try {
      for (const [index, bus] of buses.entries()) {
        await bus.subscribe({
          consumer: 'audit',
          events: ['#'],
          handle: async (event) => void received[index]!.push(event.id),
        });
      }
      const [first, second] = [envelope('incident.created'), envelope('incident.created')];
      await buses[0]!.publish(first);
      await buses[1]!.publish(second);
      await waitFor(() => received.every((ids) => ids.length > 0), { what: 'one event at each deployment' });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(received).toEqual([[first.id], [second.id]]);
      expect(consumerQueues(exchanges[0]!, 'audit')).toEqual({
        main: `${exchanges[0]}.audit`,
        retry: `${exchanges[0]}.audit.backoff`,
        dlq: `${exchanges[0]}.audit.dlq`,
      });
    } finally {
      await Promise.all(buses.map((bus) => bus.close()));
      await deleteRabbitTopology({ exchanges, consumers: ['audit'] });
    }
  });
});

describe('delivery attempt header', () => {
  it.each([
    [undefined, 1],
    [3, 3],
    ['4', 4],
    ['NaN?', 1],
    [0, 1],
    [-2, 1],
    [1.5, 1],
    [{ nested: true }, 1],
  ])('when the header is %p, then the attempt is %p', (header, attempt) => {
    expect(deliveryAttempt(header)).toBe(attempt);
  });
});

describe('in-process bus closing', () => {
  it('when the bus closes while a delivery waits for its retry, then publish rejects and the outbox keeps the event', async () => {
    const bus = new InProcessEventBus({ logger: createRecordingLogger(), maxAttempts: 3, retryDelayMs: 60_000 });
    await bus.subscribe({
      consumer: 'closing',
      events: ['close.check'],
      handle: async () => {
        throw new Error('not yet');
      },
    });
    const publishing = bus.publish(envelope('close.check'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await bus.close();
    await expect(publishing).rejects.toThrow(/closed before closing handled/);
    expect(bus.deadLetters).toEqual([]);
  });
});
