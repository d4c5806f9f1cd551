import { existsSync } from 'node:fs';
import path from 'node:path';
import { Verifier } from '@pact-foundation/pact';
import { createTestDependencies, type TestDependencies } from '@whistle/service-kit/testing';
import { startAuth, type RunningAuth } from '../support';
import { staffStates } from './staff-states';

const pactFile = path.resolve(__dirname, '../../../../pacts/whistle-mfe-settings-whistle-auth.json');

let test$: TestDependencies;
let auth: RunningAuth;
const states = staffStates(() => test$, () => auth.baseUrl);

beforeAll(async () => {
  test$ = await createTestDependencies('pglite+in-process');
  auth = await startAuth(test$.deps);
});
afterAll(async () => {
  await auth?.close();
  await test$?.dispose();
});

test('when the account settings pact is replayed against auth, then every interaction is honoured', async () => {
  if (!existsSync(pactFile)) throw new Error(`${pactFile} is missing: run mfe-settings' tests first (npm test runs them in order)`);
  await new Verifier({
    provider: 'whistle-auth',
    providerBaseUrl: auth.baseUrl,
    providerVersion: '0.1.0',
    pactUrls: [pactFile],
    logLevel: 'warn',
    requestFilter: states.requestFilter,
    stateHandlers: {
      'staff member ada@settings.example without MFA exists': () => states.admin('ada@settings.example'),
      'staff member ada@settings.example has a pending MFA factor': () => states.pendingMfa('ada@settings.example'),
    },
  }).verifyProvider();
});
