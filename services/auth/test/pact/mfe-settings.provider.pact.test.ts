import { authProvider } from './auth-provider';
import { staffStates } from './staff-states';
import { PACT_VERIFICATION_TIMEOUT_MS, verifyProviderPact } from '@whistle/test-support';

const provider = authProvider();
const states = staffStates(provider.testDependencies, provider.baseUrl, provider);

test(
  'when the account settings pact is replayed against auth, then every interaction is honoured',
  async () => {
    await verifyProviderPact({
      consumer: 'whistle-mfe-settings',
      provider: 'whistle-auth',
      baseUrl: provider.baseUrl(),
      requestFilter: states.requestFilter,
      stateHandlers: {
        'staff member ada@settings.example without MFA exists': () => states.admin('ada@settings.example'),
        'staff member ada@settings.example has a pending MFA factor': () => states.pendingMfa('ada@settings.example'),
        'staff member ada@settings.example has a reply template': () => states.replyTemplate('ada@settings.example'),
        'staff member ada@settings.example has single sign-on configured': () =>
          states.singleSignOn('ada@settings.example'),
      },
    });
  },
  PACT_VERIFICATION_TIMEOUT_MS,
);
