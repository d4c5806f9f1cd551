import { randomUUID } from 'node:crypto';
import type { EventActor } from '@whistle/contracts';
import { createTestDependencies, waitFor, type TestDependencies } from '@whistle/service-kit/testing';
import { publish, staffToken, startAudit } from '../support';

/** A staff member of a company, as auth announces them to the trail. */
export interface AuditedStaff {
  userId: string;
  companyId: string;
  fullName: string;
}

/**
 * The audit service on an in-memory PGlite for one provider verification file: started before its tests,
 * closed after. States write the trail the way production does: events through an outbox and the bus,
 * recorded by the service's own consumer (the trail refuses rows written any other way).
 */
export function auditProvider() {
  let test$: TestDependencies | undefined;
  let audit: Awaited<ReturnType<typeof startAudit>> | undefined;
  beforeAll(async () => {
    test$ = await createTestDependencies('pglite+in-process');
    audit = await startAudit(test$);
  });
  afterAll(async () => {
    await audit?.close();
    await test$?.dispose();
  });

  /** Publishes an event of `staff`'s company, done by them, and waits until the trail has it. */
  async function record(staff: AuditedStaff, name: string, payload: Record<string, unknown>): Promise<void> {
    const actor: EventActor = { type: 'STAFF', user_id: staff.userId };
    const envelope = await publish(test$!, { name, company_id: staff.companyId, payload, actor });
    await waitFor(
      async () =>
        (await test$!.deps.db.query('select 1 from audit.audit_event where id = $1', [envelope.id])).rows.length > 0,
      { what: `${name} in the trail` },
    );
  }

  return {
    baseUrl: () => audit!.baseUrl,
    record,
    /** `staff` joins the trail as an admin (auth's user.created): answers their access token. */
    async admin(staff: AuditedStaff): Promise<string> {
      await record(staff, 'user.created', {
        user_id: staff.userId,
        email: `admin-${randomUUID()}@audit.example`,
        full_name: staff.fullName,
        roles: ['ADMIN'],
      });
      return staffToken({ userId: staff.userId, companyId: staff.companyId, roles: ['ADMIN'] });
    },
  };
}
