import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eventProducers } from '@whistle/contracts';
import { brokerPermissionCommands, brokerPermissions } from '../../src/messaging';

const services = Object.keys(eventProducers) as (keyof typeof eventProducers)[];

describe('broker permissions of a service user', () => {
  // RabbitMQ's patterns are PCRE; these use nothing JavaScript reads differently.
  const file = brokerPermissions({ exchange: 'whistle.events', consumer: 'file', publishes: eventProducers.file });
  const matches = (pattern: string, name: string) => new RegExp(pattern).test(name);

  test('when the file user is described, then it configures only its own queues and router, never the shared exchange', () => {
    for (const own of [
      'whistle.events.file',
      'whistle.events.file.backoff',
      'whistle.events.file.dlq',
      'whistle.events.file.router',
    ])
      expect({
        own,
        configure: matches(file.configure, own),
        write: matches(file.write, own),
        read: matches(file.read, own),
      }).toEqual({
        own,
        configure: true,
        write: true,
        read: true,
      });
    for (const other of [
      'whistle.events',
      'amq.default',
      '',
      'whistle.events.audit',
      'whistle.events.audit.router',
      'whistle.events.file2',
      'whistle_events.file',
      'whistle.events.file.retry',
    ])
      expect({ other, configure: matches(file.configure, other) }).toEqual({ other, configure: false });
    for (const other of ['amq.default', '', 'whistle.events.audit', 'whistle.events.audit.router', 'whistleXevents'])
      expect({ other, write: matches(file.write, other), read: matches(file.read, other) }).toEqual({
        other,
        write: false,
        read: false,
      });
  });

  test('when the file user publishes, then only its own events’ routing keys are let through', () => {
    expect(matches(file.topic.write, 'incident.file.created')).toBe(true);
    for (const key of ['user.updated', 'incident.created', 'incident.file.createdX', 'incident.fileXcreated', '', '#'])
      expect({ key, allowed: matches(file.topic.write, key) }).toEqual({ key, allowed: false });
    const audit = brokerPermissions({ exchange: 'whistle.events', consumer: 'audit', publishes: eventProducers.audit });
    for (const key of ['', 'user.updated', 'incident.file.created'])
      expect({ key, allowed: matches(audit.topic.write, key) }).toEqual({ key, allowed: false });
  });

  test('when docs/operations.md shows the commands, then they are exactly what is generated for each service', () => {
    const docs = readFileSync(path.join(__dirname, '../../../../docs/operations.md'), 'utf8');
    const marked = docs.slice(docs.indexOf('<!-- generated: broker users'));
    const block = /```sh\n([\s\S]*?)```/.exec(marked)?.[1] ?? '';
    const expected = services.flatMap((service) => [
      `rabbitmqctl add_user whistle-${service} "$WHISTLE_${service.toUpperCase()}_AMQP_PASSWORD"`,
      ...brokerPermissionCommands({
        vhost: 'whistle',
        user: `whistle-${service}`,
        exchange: 'whistle.events',
        consumer: service,
        publishes: eventProducers[service],
      }),
    ]);
    expect(block.trim().split('\n')).toEqual(expected);
  });
});
