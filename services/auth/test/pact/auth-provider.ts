import { createTestDependencies, type TestDependencies } from '@whistle/service-kit/testing';
import { startAuth, type RunningAuth } from '../support';

/**
 * Auth on an in-memory PGlite for one provider verification file: started before its tests, closed
 * after. Provider states write through `testDependencies()` or call auth at `baseUrl()`.
 */
export function authProvider(): { testDependencies(): TestDependencies; baseUrl(): string } {
  let test$: TestDependencies | undefined;
  let auth: RunningAuth | undefined;
  beforeAll(async () => {
    test$ = await createTestDependencies('pglite+in-process');
    auth = await startAuth(test$.deps);
  });
  afterAll(async () => {
    await auth?.close();
    await test$?.dispose();
  });
  return { testDependencies: () => test$!, baseUrl: () => auth!.baseUrl };
}
