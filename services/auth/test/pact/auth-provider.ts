import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DiskObjectStore, type ObjectStore } from '@whistle/object-store';
import { createTestDependencies, type TestDependencies } from '@whistle/service-kit/testing';
import { startAuth, type RunningAuth } from '../support';

/**
 * Auth on an in-memory PGlite for one provider verification file: started before its tests, closed
 * after. Provider states write through `testDependencies()` or call auth at `baseUrl()`.
 */
export function authProvider(): {
  testDependencies(): TestDependencies;
  baseUrl(): string;
  objects(): ObjectStore;
  mailTo: RunningAuth['mailTo'];
  mailCount(): number;
} {
  let test$: TestDependencies | undefined;
  let auth: RunningAuth | undefined;
  let folder: string | undefined;
  let objects: ObjectStore | undefined;
  beforeAll(async () => {
    test$ = await createTestDependencies('pglite+in-process');
    // A store the states can write logos into, as an upload would.
    folder = await mkdtemp(path.join(tmpdir(), 'whistle-auth-pact-objects-'));
    objects = new DiskObjectStore(folder);
    // The states register the same admin address again and again (a fresh company per interaction).
    auth = await startAuth({ ...test$.deps, objects }, { ONBOARDING_LIMIT_PER_ADDRESS: '1000' });
  });
  afterAll(async () => {
    await auth?.close();
    await test$?.dispose();
    if (folder) await rm(folder, { recursive: true, force: true });
  });
  return {
    testDependencies: () => test$!,
    baseUrl: () => auth!.baseUrl,
    objects: () => objects!,
    mailTo: (to, subject, since) => auth!.mailTo(to, subject, since),
    mailCount: () => auth!.mails.length,
  };
}
