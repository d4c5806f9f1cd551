import { existsSync } from 'node:fs';
import path from 'node:path';
import { Verifier } from '@pact-foundation/pact';
import { createTestDependencies, type TestDependencies } from '@whistle/service-kit/testing';
import { startAuth, type RunningAuth } from '../support';
import { staffStates } from './staff-states';

const pactFile = path.resolve(__dirname, '../../../../pacts/whistle-shell-sign-in-whistle-auth.json');

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

test('when the shell sign-in pact is replayed against auth, then every interaction is honoured', async () => {
  if (!existsSync(pactFile)) throw new Error(`${pactFile} is missing: run the shell's tests first (npm test runs them in order)`);
  await new Verifier({
    provider: 'whistle-auth',
    providerBaseUrl: auth.baseUrl,
    providerVersion: '0.1.0',
    pactUrls: [pactFile],
    logLevel: 'warn',
    requestFilter: states.requestFilter,
    stateHandlers: {
      'staff member ada@signin.example without MFA exists': () => states.admin('ada@signin.example'),
      'staff member grace@signin-mfa.example with MFA exists': () => states.withMfa('grace@signin-mfa.example'),
      'an MFA challenge of grace@signin-mfa.example is open': () => states.openChallenge('grace@signin-mfa.example'),
    },
  }).verifyProvider();
});
