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

test('when the account settings pact is replayed against auth, then every interaction is honoured', async () => {
  await verifyProviderPact({
    consumer: 'whistle-mfe-settings',
    provider: 'whistle-auth',
    baseUrl: auth.baseUrl,
    requestFilter: states.requestFilter,
    stateHandlers: {
      'staff member ada@settings.example without MFA exists': () => states.admin('ada@settings.example'),
      'staff member ada@settings.example has a pending MFA factor': () => states.pendingMfa('ada@settings.example'),
    },
  });
});
