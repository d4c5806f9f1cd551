import { readinessChecks } from './health';

describe('readinessChecks', () => {
  it('when probes resolve, reject or never answer, then each is reported as passing or failing by name', async () => {
    const readiness = readinessChecks(
      {
        database: async () => 'row',
        bus: () => Promise.reject(new Error('connection lost')),
        objects: () => new Promise(() => undefined),
      },
      50,
    );
    expect(await readiness()).toEqual({ database: true, bus: false, objects: false });
  });
});
