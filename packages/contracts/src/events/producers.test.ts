import { eventCatalogue } from './catalogue';
import { eventProducers } from './producers';

describe('event producers', () => {
  test('when the catalogue is read, then every event has exactly one producing service', () => {
    const produced = Object.values(eventProducers).flat();
    expect([...produced].sort()).toEqual(Object.keys(eventCatalogue).sort());
    expect(new Set(produced).size).toBe(produced.length);
  });
});
