import { ServiceUnavailableError } from '../errors/errors';
import { NotReadyError, readinessChecks } from './health';

describe('readinessChecks', () => {
  it('when probes resolve, reject or never answer, then each is reported as passing or failing by name, with why', async () => {
    const readiness = readinessChecks(
      {
        database: async () => 'row',
        bus: () => Promise.reject(new Error('connect ECONNREFUSED 10.1.2.3:5672')),
        objects: () => new Promise(() => undefined),
      },
      50,
    );
    expect(await readiness()).toEqual({
      checks: { database: true, bus: false, objects: false },
      // A driver's message may name hosts: not shown.
      reasons: { bus: 'the check failed', objects: 'no answer within 50 ms' },
    });
  });

  it('when a probe fails with a message meant for the operator or a 503 for clients, then that message is the reason', async () => {
    const readiness = readinessChecks({
      objects: () => Promise.reject(new NotReadyError('The data disk has 12 MiB free, under 64 MiB')),
      store: () =>
        Promise.reject(new ServiceUnavailableError('The file store is unavailable, please try again shortly')),
    });
    expect((await readiness()).reasons).toEqual({
      objects: 'The data disk has 12 MiB free, under 64 MiB',
      store: 'The file store is unavailable, please try again shortly',
    });
  });
});
