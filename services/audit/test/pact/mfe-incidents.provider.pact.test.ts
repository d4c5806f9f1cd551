import { randomUUID } from 'node:crypto';
import { PACT_VERIFICATION_TIMEOUT_MS, verifyProviderPact } from '@whistle/test-support';
import { CASE_TRAIL_STATE, EXAMPLE_CASE } from '../../../../mfe-incidents/test/pact/fixtures';
import { auditProvider } from './audit-provider';

const provider = auditProvider();
const admin = { userId: randomUUID(), companyId: randomUUID(), fullName: 'Ada Lovelace' };

/** The admin opened EXAMPLE_CASE and wrote a note on it: both are in the case's trail. */
async function adminWhoWorkedTheCase(): Promise<{ staffToken: string }> {
  const staffToken = await provider.admin(admin);
  await provider.record(admin, 'incident.viewed', { incident_id: EXAMPLE_CASE });
  await provider.record(admin, 'incident.note.created', { incident_id: EXAMPLE_CASE, incident_note_id: randomUUID() });
  return { staffToken };
}

test(
  "when the case history's pact is replayed against audit, then every interaction is honoured",
  async () => {
    await verifyProviderPact({
      consumer: 'whistle-mfe-incidents',
      provider: 'whistle-audit',
      baseUrl: provider.baseUrl(),
      stateHandlers: { [CASE_TRAIL_STATE]: adminWhoWorkedTheCase },
    });
  },
  PACT_VERIFICATION_TIMEOUT_MS,
);
