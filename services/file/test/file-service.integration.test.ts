import { openEventBus } from '@whistle/service-kit';
import { createTestDependencies, testStacks, type TestDependencies } from '@whistle/service-kit/testing';
import { generateDiscloserTokenKeys } from '@whistle/tokens/testing';
import { fileConfigSchema } from '../src/config';
import { FILE_SCHEMA } from '../src/data-access/migrations';
import { createFileService, type FileDependencies } from '../src/service';
import { createInspectableStore, type InspectableStore } from './support';

describe.each(testStacks)('file service on %s', (stack) => {
  let test$: TestDependencies;
  let store: InspectableStore;
  let deps: FileDependencies;
  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['file']);
    store = await createInspectableStore(stack);
    deps = { ...test$.deps, objects: store.objects };
  });
  afterAll(async () => {
    await store?.dispose();
    await test$?.dispose();
  });

  test('when the service starts twice, then its schema with outbox and inbox exists once', async () => {
    const config = fileConfigSchema.parse({ DISCLOSER_TOKEN_PUBLIC_KEY: generateDiscloserTokenKeys().publicKeyPem });
    for (let start = 0; start < 2; start += 1) {
      // A restart is a new process with a bus of its own (a bus takes one consumer of a name: `file`, since the
      // service follows incident.deleted); the database is the same.
      const bus = await openEventBus({ logger: test$.deps.logger });
      const service = createFileService({ ...deps, bus }, config);
      await service.start();
      await service.stop();
      await bus.close();
    }
    const { rows } = await test$.deps.db.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = $1 and table_name in ('outbox', 'inbox') order by table_name",
      [FILE_SCHEMA],
    );
    expect(rows.map((row) => row.table_name)).toEqual(['inbox', 'outbox']);
  });

  test('when the public key is missing or not a P-256 key, then the configuration is refused', () => {
    expect(fileConfigSchema.safeParse({}).success).toBe(false);
    expect(() => createFileService(deps, fileConfigSchema.parse({ DISCLOSER_TOKEN_PUBLIC_KEY: 'nope' }))).toThrow(
      'DISCLOSER_TOKEN_PUBLIC_KEY',
    );
  });
});
