import { authProvider } from './auth-provider';
import { staffStates } from './staff-states';
import { PACT_VERIFICATION_TIMEOUT_MS, verifyProviderPact } from '@whistle/test-support';

const provider = authProvider();
const states = staffStates(provider.testDependencies, provider.baseUrl, provider);

test(
  "when the staff case pages' pact is replayed against auth, then every interaction is honoured",
  async () => {
    await verifyProviderPact({
      consumer: 'whistle-mfe-incidents',
      provider: 'whistle-auth',
      baseUrl: provider.baseUrl(),
      requestFilter: states.requestFilter,
      stateHandlers: {
        'staff member ada@cases.example has a reply template': () => states.replyTemplate('ada@cases.example'),
        'staff member ada@cases.example is the admin of a company': () => states.admin('ada@cases.example'),
      },
    });
  },
  PACT_VERIFICATION_TIMEOUT_MS,
);
