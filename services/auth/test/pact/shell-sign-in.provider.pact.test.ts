import { createTestDependencies, type TestDependencies } from '@whistle/service-kit/testing';
import { startAuth, type RunningAuth } from '../support';
import { staffStates } from './staff-states';
import { verifyProviderPact } from '@whistle/test-support';

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
  await verifyProviderPact({
    consumer: 'whistle-shell-sign-in',
    provider: 'whistle-auth',
    baseUrl: auth.baseUrl,
    requestFilter: states.requestFilter,
    stateHandlers: {
      'staff member ada@signin.example without MFA exists': () => states.admin('ada@signin.example'),
      'staff member grace@signin-mfa.example with MFA exists': () => states.withMfa('grace@signin-mfa.example'),
      'an MFA challenge of grace@signin-mfa.example is open': () => states.openChallenge('grace@signin-mfa.example'),
    },
  });
});
