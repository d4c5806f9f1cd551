import { PACT_VERIFICATION_TIMEOUT_MS, verifyProviderPact } from '@whistle/test-support';
import { AUDIT_ADMIN, AUDIT_LOG_STATE } from '../../../../mfe-settings/test/pact/audit-fixtures';
import { auditProvider } from './audit-provider';

const provider = auditProvider();
const admin = { userId: AUDIT_ADMIN.uuid, companyId: AUDIT_ADMIN.companyUuid, fullName: AUDIT_ADMIN.fullName };

/** The admin, two of their sign-ins and a refused one: the page's filters keep the two. */
async function adminWithSignIns(): Promise<{ staffToken: string }> {
  const staffToken = await provider.admin(admin);
  await provider.record(admin, 'user.signed_in', { user_id: admin.userId, method: 'password' });
  await provider.record(admin, 'user.sign_in_failed', { user_id: admin.userId, factor: 'mfa' });
  await provider.record(admin, 'user.signed_in', { user_id: admin.userId, method: 'mfa' });
  return { staffToken };
}

test(
  "when the audit log page's pact is replayed against audit, then every interaction is honoured",
  async () => {
    await verifyProviderPact({
      consumer: 'whistle-mfe-settings',
      provider: 'whistle-audit',
      baseUrl: provider.baseUrl(),
      stateHandlers: { [AUDIT_LOG_STATE]: adminWithSignIns },
    });
  },
  PACT_VERIFICATION_TIMEOUT_MS,
);
