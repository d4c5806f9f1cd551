import { createTestDependencies, testStacks, type TestDependencies } from '@whistle/service-kit/testing';
import { createFileService, FILE_SCHEMA } from '../src/service';

describe.each(testStacks)('file service on %s', (stack) => {
  let test$: TestDependencies;
  beforeAll(async () => {
    test$ = await createTestDependencies(stack);
  });
  afterAll(async () => {
    await test$?.dispose();
  });

  test('when the service starts twice, then its schema with outbox and inbox exists once', async () => {
    const service = createFileService(test$.deps);
    await service.start();
    await service.stop();
    await service.start();
    await service.stop();
    const { rows } = await test$.deps.db.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = $1 and table_name in ('outbox', 'inbox') order by table_name",
      [FILE_SCHEMA],
    );
    expect(rows.map((row) => row.table_name)).toEqual(['inbox', 'outbox']);
  });
});
