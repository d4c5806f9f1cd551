import { generateDiscloserTokenKeys } from '@whistle/service-kit';
import { createTestDependencies, testStacks, type TestDependencies } from '@whistle/service-kit/testing';
import { fileConfigSchema } from '../src/config';
import { FILE_SCHEMA } from '../src/data-access/migrations';
import { createFileService } from '../src/service';

describe.each(testStacks)('file service on %s', (stack) => {
  let test$: TestDependencies;
  beforeAll(async () => {
    test$ = await createTestDependencies(stack);
  });
  afterAll(async () => {
    await test$?.dispose();
  });

  test('when the service starts twice, then its schema with outbox and inbox exists once', async () => {
    const service = createFileService(
      test$.deps,
      fileConfigSchema.parse({ DISCLOSER_TOKEN_PUBLIC_KEY: generateDiscloserTokenKeys().publicKeyPem }),
    );
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

  test('when the public key is missing or not a P-256 key, then the configuration is refused', () => {
    expect(fileConfigSchema.safeParse({}).success).toBe(false);
    expect(() => createFileService(test$.deps, fileConfigSchema.parse({ DISCLOSER_TOKEN_PUBLIC_KEY: 'nope' }))).toThrow(
      'DISCLOSER_TOKEN_PUBLIC_KEY',
    );
  });
});
