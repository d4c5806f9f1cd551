import amqplib from 'amqplib';
import { eventProducers, type EventEnvelope } from '@whistle/contracts';
import {
  consumerQueues,
  consumerRouter,
  listDeadLetters,
  RabbitMqEventBus,
  replayDeadLetters,
  UnprocessableEventError,
} from '../../src/messaging';
import {
  createBrokerUser,
  createRecordingLogger,
  deleteRabbitTopology,
  testAmqpUrl,
  uniqueTestName,
  waitFor,
  type TestBrokerUser,
} from '../../src/testing';
import { envelope } from './support';

/**
 * One RabbitMQ user per service, with the permissions docs/operations.md ("Broker users") gives it, made with
 * rabbitmqctl on the local broker: the file service publishes its own events, the audit service consumes them, and
 * neither can publish, route or delete what is not its own.
 */
describe('one broker user per service', () => {
  const exchange = uniqueTestName('whistle.users');
  const logger = createRecordingLogger();
  let fileUser: TestBrokerUser;
  let auditUser: TestBrokerUser;
  let fileBus: RabbitMqEventBus;
  let auditBus: RabbitMqEventBus;
  const handled: EventEnvelope[] = [];
  /** Event ids the audit handler fails once (then retried), or refuses (dead-lettered). */
  const failOnce = new Set<string>();
  const refuse = new Set<string>();

  beforeAll(async () => {
    // The operator declares the shared exchange (docs/operations.md): no service may.
    const admin = await amqplib.connect(testAmqpUrl());
    const channel = await admin.createChannel();
    await channel.assertExchange(exchange, 'topic', { durable: true });
    await admin.close();
    [fileUser, auditUser] = await Promise.all([
      createBrokerUser({ exchange, consumer: 'file', publishes: eventProducers.file }),
      createBrokerUser({ exchange, consumer: 'audit', publishes: eventProducers.audit }),
    ]);
    fileBus = await RabbitMqEventBus.connect({ url: fileUser.url, exchange, logger });
    auditBus = await RabbitMqEventBus.connect({ url: auditUser.url, exchange, logger, retryDelayMs: 200 });
    await auditBus.subscribe({
      consumer: 'audit',
      events: ['#'],
      handle: async (event) => {
        if (failOnce.delete(event.id)) throw new Error('database busy');
        if (refuse.has(event.id)) throw new UnprocessableEventError('cannot record it');
        handled.push(event);
      },
    });
  }, 120_000);

  afterAll(async () => {
    await fileBus?.close();
    await auditBus?.close();
    await deleteRabbitTopology({ exchanges: [exchange], consumers: ['file', 'audit'] });
    await Promise.all([fileUser?.remove(), auditUser?.remove()]);
  }, 60_000);

  const handledIds = () => handled.map((event) => event.id);

  test('when each service connects as its own user, then its events reach the consumer, and a failed one is retried, dead-lettered and replayed through the consumer’s router', async () => {
    const [first, retried, refused] = [1, 2, 3].map(() => envelope('incident.file.created'));
    failOnce.add(retried!.id);
    refuse.add(refused!.id);
    for (const event of [first!, retried!, refused!]) await fileBus.publish(event);
    await waitFor(() => handledIds().includes(first!.id) && handledIds().includes(retried!.id), {
      what: 'the event and the retried one handled',
    });
    const queue = { amqpUrl: auditUser.url, exchange, consumer: 'audit' };
    await waitFor(async () => (await listDeadLetters(queue)).length === 1, { what: 'the refused event dead-lettered' });
    refuse.clear();
    await replayDeadLetters(queue);
    await waitFor(() => handledIds().includes(refused!.id), { what: 'the replayed event handled' });
  });

  test('when a service publishes another service’s event, then the broker refuses it and no consumer gets it', async () => {
    const forged = envelope('user.updated');
    await expect(fileBus.publish(forged)).rejects.toThrow();
    // The bus goes on publishing its own events afterwards.
    const own = envelope('incident.file.downloaded');
    await fileBus.publish(own);
    await waitFor(() => handledIds().includes(own.id), { what: 'the next own event' });
    expect(handledIds()).not.toContain(forged.id);
  });

  test('when a service disguises another service’s event under one of its own routing keys, then consumers dead-letter it unhandled', async () => {
    const forged = envelope('user.updated');
    const connection = await amqplib.connect(fileUser.url);
    try {
      const channel = await connection.createConfirmChannel();
      channel.publish(exchange, 'incident.file.created', Buffer.from(JSON.stringify(forged)), { type: forged.name });
      await channel.waitForConfirms();
    } finally {
      await connection.close();
    }
    const queue = { amqpUrl: auditUser.url, exchange, consumer: 'audit' };
    await waitFor(async () => (await listDeadLetters(queue)).length === 1, {
      what: 'the disguised event dead-lettered',
    });
    const letters = await listDeadLetters(queue);
    expect(letters).toEqual([expect.objectContaining({ error: 'routing key is not the event name' })]);
    expect(handledIds()).not.toContain(forged.id);
  });

  test('when a service writes into another consumer’s queues or router, binds them, or deletes the shared exchange, then the broker refuses each', async () => {
    const audit = consumerQueues(exchange, 'audit');
    const attempts: Record<string, (channel: amqplib.ConfirmChannel) => Promise<unknown>> = {
      'send to the audit queue through the default exchange': (channel) =>
        new Promise((resolve, reject) =>
          channel.sendToQueue(audit.main, Buffer.from(JSON.stringify(envelope('user.updated'))), {}, (error) =>
            error ? reject(error) : resolve(undefined),
          ),
        ),
      'publish to the audit router': (channel) =>
        new Promise((resolve, reject) =>
          channel.publish(consumerRouter(exchange, 'audit'), 'main', Buffer.from('{}'), {}, (error) =>
            error ? reject(error) : resolve(undefined),
          ),
        ),
      'bind the audit queue': (channel) => channel.bindQueue(audit.main, exchange, 'user.#'),
      'read the audit queue': (channel) => channel.get(audit.main),
      'delete the audit queue': (channel) => channel.deleteQueue(audit.main),
      'delete the shared exchange': (channel) => channel.deleteExchange(exchange),
      'redeclare the shared exchange': (channel) => channel.assertExchange(exchange, 'topic', { durable: true }),
    };
    const connection = await amqplib.connect(fileUser.url);
    const outcomes: Record<string, string> = {};
    try {
      for (const [what, attempt] of Object.entries(attempts)) {
        const channel = await connection.createConfirmChannel();
        // A refused publish closes the channel: the reason comes as the channel's error.
        let closedWith = '';
        channel.on('error', (error: Error) => void (closedWith = error.message));
        outcomes[what] = await attempt(channel).then(
          () => 'allowed',
          async (error: Error) => {
            await new Promise((resolve) => setImmediate(resolve));
            return /ACCESS.REFUSED/.test(`${error.message} ${closedWith}`) ? 'refused' : error.message;
          },
        );
        await channel.close().catch(() => undefined);
      }
    } finally {
      await connection.close();
    }
    expect(outcomes).toEqual(Object.fromEntries(Object.keys(attempts).map((what) => [what, 'refused'])));
  });
});
