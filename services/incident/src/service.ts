import { Router } from 'express';
import {
  createServiceLifecycle,
  databasePort,
  defineService,
  eventBusPort,
  rateLimitCountersFor,
  rateLimitMigrations,
  serviceDatabase,
  type ServiceDependencies,
  type WhistleService,
} from '@whistle/service-kit';
import { createIncidentSessionVerifier, createStaffTokenVerifier } from '@whistle/tokens';
import { incidentConfigSchema, type IncidentConfig } from './config';
import { INCIDENT_SCHEMA, incidentMigrations } from './data-access/migrations';
import { reportRequestRepository } from './data-access/report-request.repository';
import { staffRepository } from './data-access/staff.repository';
import { sendDeadlineReminders } from './domain/deadlines/send-deadline-reminders.use-case';
import { foldReportingDeltas } from './domain/reporting/fold-reporting-deltas.use-case';
import { createReportWriter } from './domain/report/report-writer';
import { runRetention } from './domain/retention/purge-expired-cases.use-case';
import { createIncidentSessionSigner } from './domain/tokens/incident-session-signer';
import { caseRoutes } from './entry-points/http/case.routes';
import { incidentRoutes } from './entry-points/http/incident.routes';
import { retentionRoutes } from './entry-points/http/retention.routes';
import { readModelsSubscription } from './entry-points/messaging/read-models.subscription';
import { createDeadlineScheduler, type DeadlineScheduler } from './entry-points/scheduler/deadline-scheduler';
import {
  createReportingFoldScheduler,
  type ReportingFoldScheduler,
} from './entry-points/scheduler/reporting-fold-scheduler';
import { createRetentionScheduler, type RetentionScheduler } from './entry-points/scheduler/retention-scheduler';

const incidentPorts = { db: databasePort, bus: eventBusPort };
export type IncidentDependencies = ServiceDependencies<typeof incidentPorts>;

const CLEANUP_INTERVAL_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface IncidentService extends WhistleService {
  /** The deadline reminders: scanned on an interval once started; `runOnce()` scans now (tests, operations). */
  readonly deadlines: Pick<DeadlineScheduler, 'runOnce'>;
  /** The retention job (warnings, then deletions): on an interval once started; `runOnce()` runs it now. */
  readonly retention: Pick<RetentionScheduler, 'runOnce'>;
  /** The reporting fold (deltas into the per-day summary): on an interval once started; `runOnce()` folds now. */
  readonly reportingFold: Pick<ReportingFoldScheduler, 'runOnce'>;
}

/** Incidents, messages, notes, export and deadlines (/api/incident/*, except files, which are the file service's). */
export function createIncidentService(given: IncidentDependencies, config: IncidentConfig): IncidentService {
  // Its tenant scopes run as the incident schema's own tenant role (docs/security.md, "Tenant isolation").
  const deps = { ...given, db: serviceDatabase(given.db, INCIDENT_SCHEMA) };
  const lifecycle = createServiceLifecycle({
    name: 'incident',
    schema: INCIDENT_SCHEMA,
    migrations: [...rateLimitMigrations(INCIDENT_SCHEMA), ...incidentMigrations],
    deps,
    subscriptions: [readModelsSubscription],
  });
  const logger = deps.logger.child({ service: 'incident' });
  const signer = createIncidentSessionSigner(config.DISCLOSER_TOKEN_PRIVATE_KEY);
  // Revocations are this service's own rows (from token.revoked and user.deleted): every replica, and a
  // restarted one, refuses a logged-out or removed user's token.
  const staffTokens = createStaffTokenVerifier({
    publicKey: config.TOKEN_PUBLIC_KEY,
    isRevoked: (principal) =>
      staffRepository.isRevoked(deps.db, {
        jti: principal.tokenId,
        userId: principal.userId,
        issuedAt: principal.issuedAt,
      }),
  });
  const shared = { db: deps.db, unitOfWork: lifecycle.unitOfWork, signer, staffTokens };
  const router = Router();
  // Before both: the case routes' /:incident_uuid would take /api/incident/retention.
  router.use(retentionRoutes({ ...shared, policy: { warningDays: config.RETENTION_WARNING_DAYS } }));
  // The discloser's routes first: their fixed paths (/api/incident/discloser) before the cases' /:incident_uuid.
  router.use(
    incidentRoutes({
      ...shared,
      reports: createReportWriter({
        db: deps.db,
        writeWithEvents: lifecycle.writeWithEvents,
        dueSoonWindowMs: config.DEADLINE_DUE_SOON_DAYS * DAY_MS,
      }),
      incidentSessions: createIncidentSessionVerifier(signer.publicKeyPem),
      limits: {
        reportPerClient: config.REPORT_LIMIT_PER_CLIENT,
        reportPerCompany: config.REPORT_LIMIT_PER_COMPANY,
        retrievalPerClient: config.RETRIEVAL_LIMIT_PER_CLIENT,
        retrievalFailuresPerCompany: config.RETRIEVAL_FAILURE_LIMIT_PER_COMPANY,
      },
      // Every replica holds the discloser-token key: the counters' keys are HMAC-ed with a key derived from it.
      rateLimits: rateLimitCountersFor({
        db: deps.db,
        schema: INCIDENT_SCHEMA,
        secret: config.DISCLOSER_TOKEN_PRIVATE_KEY,
      }),
    }),
  );
  router.use(caseRoutes(shared));

  // Every replica runs one; the record of each reminder and SKIP LOCKED keep each reminder to one emission.
  const deadlines = createDeadlineScheduler({
    scan: () =>
      sendDeadlineReminders(
        { unitOfWork: lifecycle.unitOfWork },
        { windowMs: config.DEADLINE_DUE_SOON_DAYS * DAY_MS, batchSize: config.DEADLINE_SCAN_BATCH_SIZE },
      ),
    intervalMs: config.DEADLINE_SCAN_INTERVAL_MS,
    logger: logger.child({ component: 'deadline-scheduler' }),
  });

  // Every replica runs one; SKIP LOCKED and the record of each warning keep each case to one warning and one deletion.
  const retention = createRetentionScheduler({
    run: () =>
      runRetention(
        { unitOfWork: lifecycle.unitOfWork },
        { warningMs: config.RETENTION_WARNING_DAYS * DAY_MS, batchSize: config.RETENTION_SCAN_BATCH_SIZE },
      ),
    intervalMs: config.RETENTION_SCAN_INTERVAL_MS,
    logger: logger.child({ component: 'retention-scheduler' }),
  });

  // Every replica runs one; an advisory lock lets one fold at a time, the others find it taken and skip.
  const reportingFold = createReportingFoldScheduler({
    run: () => foldReportingDeltas({ db: deps.db }, { batchSize: config.REPORTING_FOLD_BATCH_SIZE }),
    intervalMs: config.REPORTING_FOLD_INTERVAL_MS,
    logger: logger.child({ component: 'reporting-fold' }),
  });

  let cleanup: NodeJS.Timeout | undefined;
  const removeExpired = () => {
    staffRepository
      .removeExpiredRevocations(deps.db)
      .catch((err: unknown) => logger.warn({ err }, 'expired revocations not removed'));
    reportRequestRepository
      .removeExpired(deps.db)
      .catch((err: unknown) => logger.warn({ err }, 'expired report idempotency keys not removed'));
  };
  return {
    name: 'incident',
    router,
    deadlines: { runOnce: deadlines.runOnce },
    retention: { runOnce: retention.runOnce },
    reportingFold: { runOnce: reportingFold.runOnce },
    async start() {
      await lifecycle.start();
      cleanup = setInterval(removeExpired, CLEANUP_INTERVAL_MS).unref();
      deadlines.start();
      retention.start();
      reportingFold.start();
    },
    async stop() {
      clearInterval(cleanup);
      // Before the relay stops: a scan in progress commits its events, which the relay may still send.
      await deadlines.stop();
      await retention.stop();
      await reportingFold.stop();
      await lifecycle.stop();
    },
  };
}

export const incidentServiceDefinition = defineService({
  name: 'incident',
  configSchema: incidentConfigSchema,
  ports: incidentPorts,
  create: createIncidentService,
});
