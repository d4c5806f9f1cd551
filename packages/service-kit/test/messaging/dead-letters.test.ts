import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { RabbitMqEventBus, UnprocessableEventError, listDeadLetters, replayDeadLetters } from '../../src/messaging';
import { createRecordingLogger, deleteRabbitTopology, testAmqpUrl, uniqueTestName, waitFor } from '../../src/testing';
import { PAYLOAD_MARKER, envelope } from './support';

const run = promisify(execFile);

describe('dead letters of a RabbitMQ consumer', () => {
  const exchange = uniqueTestName('dlq');
  const consumer = 'audit';
  const queue = { amqpUrl: testAmqpUrl(), exchange, consumer };
  let bus: RabbitMqEventBus;
  /** Events the consumer refuses, until "the fix" is deployed. */
  const refused = new Set<string>();
  const handled: string[] = [];

  beforeAll(async () => {
    bus = await RabbitMqEventBus.connect({ url: testAmqpUrl(), exchange, logger: createRecordingLogger() });
    await bus.subscribe({
      consumer,
      events: ['incident.*'],
      handle: async (event) => {
        if (refused.has(event.id)) throw new UnprocessableEventError(`cannot record ${event.name}`);
        handled.push(event.id);
      },
    });
  });
  afterAll(async () => {
    await bus?.close();
    await deleteRabbitTopology({ exchanges: [exchange], consumers: [consumer] });
  });

  it('when events were dead-lettered, then they can be listed without their payload, replayed one or all once fixed, and each is handled', async () => {
    const events = [envelope('incident.created'), envelope('incident.updated'), envelope('incident.viewed')];
    for (const event of events) refused.add(event.id);
    for (const event of events) await bus.publish(event);
    await waitFor(async () => (await listDeadLetters(queue)).length === 3, { what: 'three dead letters' });

    const letters = await listDeadLetters(queue);
    expect(letters).toEqual(
      events.map((event) => ({
        eventId: event.id,
        eventName: event.name,
        attempts: 1,
        error: `cannot record ${event.name}`,
      })),
    );
    // Listing leaves them where they are.
    expect(await listDeadLetters(queue)).toHaveLength(3);

    refused.clear(); // the fix
    const [second] = [events[1]!];
    expect((await replayDeadLetters(queue, { eventId: second.id })).map((letter) => letter.eventId)).toEqual([
      second.id,
    ]);
    await waitFor(() => handled.includes(second.id), { what: 'the replayed event handled' });
    expect((await listDeadLetters(queue)).map((letter) => letter.eventId)).toEqual([events[0]!.id, events[2]!.id]);

    // The command an operator runs (as built: `npm test` builds before testing), with the deployment's environment.
    const cli = path.resolve(__dirname, '../../dist/cli/dead-letters.js');
    const env = { ...process.env, AMQP_URL: testAmqpUrl(), AMQP_EXCHANGE: exchange };
    const listed = await run(process.execPath, [cli, 'list', consumer], { env });
    expect(
      listed.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).eventId),
    ).toEqual([events[0]!.id, events[2]!.id]);
    expect(listed.stdout).not.toContain(PAYLOAD_MARKER);
    const replayed = await run(process.execPath, [cli, 'replay', consumer], { env });
    expect(replayed.stderr).toContain('2 replayed');
    await waitFor(() => events.every((event) => handled.includes(event.id)), { what: 'every replayed event handled' });
    expect(await listDeadLetters(queue)).toEqual([]);
    expect(handled.filter((id) => events.some((event) => event.id === id))).toHaveLength(3);
  });
});
