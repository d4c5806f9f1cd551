import { authProvider } from './auth-provider';
import { staffStates } from './staff-states';
import { PACT_VERIFICATION_TIMEOUT_MS, verifyProviderPact } from '@whistle/test-support';

const provider = authProvider();
const states = staffStates(provider.testDependencies, provider.baseUrl, provider);

test(
  'when the shell sign-in pact is replayed against auth, then every interaction is honoured',
  async () => {
    await verifyProviderPact({
      consumer: 'whistle-shell-sign-in',
      provider: 'whistle-auth',
      baseUrl: provider.baseUrl(),
      requestFilter: states.requestFilter,
      stateHandlers: {
        'staff member ada@signin.example without MFA exists': () => states.admin('ada@signin.example'),
        'staff member grace@signin-mfa.example with MFA exists': () => states.withMfa('grace@signin-mfa.example'),
        'an MFA challenge of grace@signin-mfa.example is open': () => states.openChallenge('grace@signin-mfa.example'),
      },
    });
  },
  PACT_VERIFICATION_TIMEOUT_MS,
);
