import { topicMatches } from '../../src/messaging/topic-pattern';

describe('topicMatches (RabbitMQ topic rules)', () => {
  it.each([
    ['incident.created', 'incident.created', true],
    ['incident.created', 'incident.updated', false],
    ['incident.*', 'incident.created', true],
    ['incident.*', 'incident.message.created', false],
    ['*.created', 'company.created', true],
    ['incident.#', 'incident', true],
    ['incident.#', 'incident.message.created', true],
    ['#', 'user.created', true],
    ['#.created', 'incident.message.created', true],
    ['#.created', 'incident.updated', false],
    ['incident.#.created', 'incident.created', true],
    ['incident.#.created', 'incident.file.x.created', true],
    ['*', 'incident.created', false],
    ['incident.*.created', 'incident.created', false],
  ])('pattern %s and name %s: %s', (pattern, name, expected) => {
    expect(topicMatches(pattern, name)).toBe(expected);
  });
});
