import type { EventActor, EventEnvelope } from '@whistle/contracts';
import { createOutbox, messagingMigrations, migrate } from '@whistle/service-kit';
import { serveService, type TestDependencies } from '@whistle/service-kit/testing';
import { generateDiscloserTokenKeys, signStaffToken } from '@whistle/tokens/testing';
import { auditConfigSchema } from '../src/config';
import { createAuditService } from '../src/service';

/** Stands in for auth's signing key: the audit service verifies with its public half. */
const signingKeys = generateDiscloserTokenKeys();

/** A staff access token as auth signs it. */
export const staffToken = (staff: Parameters<typeof signStaffToken>[1]) =>
  signStaffToken(signingKeys.privateKeyPem, staff);

/** The audit service on a loopback port, with a producer schema to publish events through a real outbox. */
export async function startAudit(test$: TestDependencies) {
  await migrate(test$.deps.db, 'producer', messagingMigrations('producer'));
  const service = createAuditService(
    test$.deps,
    auditConfigSchema.parse({
      TOKEN_PUBLIC_KEY: signingKeys.publicKeyPem,
    }),
  );
  return { service, ...(await serveService(service, test$.deps.logger)) };
}

const outbox = createOutbox('producer');

/** Publishes an event through a real outbox, as the producing services do. */
export async function publish(
  test$: TestDependencies,
  event: {
    name: string;
    version?: number;
    company_id: string | null;
    payload: Record<string, unknown>;
    actor?: EventActor;
  },
): Promise<EventEnvelope> {
  const envelope = await test$.deps.db.transaction((tx) => outbox.add(tx, event));
  await test$.deps.bus.publish(envelope);
  return envelope;
}
