import { Router } from 'express';
import {
  createServiceLifecycle,
  databasePort,
  defineService,
  eventBusPort,
  housekeepingWords,
  type PeriodicJob,
  rateLimitCountersFor,
  rateLimitMigrations,
  serviceDatabase,
  type ServiceDependencies,
  type WhistleService,
  type ServiceSchema,
} from '@whistle/service-kit';
import { createIncidentSessionVerifier, createStaffTokenVerifier } from '@whistle/tokens';
import { incidentConfigSchema, type IncidentConfig } from './config';
import { INCIDENT_SCHEMA, incidentMigrations } from './data-access/migrations';
import { reportRequestRepository } from './data-access/report-request.repository';
import { sendDeadlineReminders } from './domain/deadlines/send-deadline-reminders.use-case';
import { foldReportingDeltas } from './domain/reporting/fold-reporting-deltas.use-case';
import { createProofOfWork } from './domain/intake/proof-of-work';
import { createReportWriter } from './domain/report/report-writer';
import { runRetention, type RetentionRunResult } from './domain/retention/purge-expired-cases.use-case';
import { tokenRevocations } from './domain/staff/token-revocations';
import { createIncidentSessionSigner } from './domain/tokens/incident-session-signer';
import { caseRoutes } from './entry-points/http/case.routes';
import { savedViewRoutes } from './entry-points/http/saved-view.routes';
import { companyKeyRoutes } from './entry-points/http/company-key.routes';
import { incidentRoutes } from './entry-points/http/incident.routes';
import { retentionRoutes } from './entry-points/http/retention.routes';
import { readModelsSubscription } from './entry-points/messaging/read-models.subscription';
import { deadlineScanWords, reportingFoldWords, retentionWords } from './entry-points/scheduler/job-words';

const incidentPorts = { db: databasePort, bus: eventBusPort };
export type IncidentDependencies = ServiceDependencies<typeof incidentPorts>;

const CLEANUP_INTERVAL_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface IncidentService extends WhistleService {
  /** The deadline reminders: scanned on an interval once started; `runOnce()` scans now (tests, operations). */
  readonly deadlines: Pick<PeriodicJob<number>, 'runOnce'>;
  /** The retention job (warnings, then deletions): on an interval once started; `runOnce()` runs it now. */
  readonly retention: Pick<PeriodicJob<RetentionRunResult>, 'runOnce'>;
  /** The reporting fold (deltas into the per-day summary): on an interval once started; `runOnce()` folds now. */
  readonly reportingFold: Pick<PeriodicJob<number>, 'runOnce'>;
}

/** Its schema and migrations: applied at start, and by `npm run migrate -- status|up` (src/migrate.ts). */
export const incidentSchema: ServiceSchema = {
  name: 'incident',
  schema: INCIDENT_SCHEMA,
  migrations: [rateLimitMigrations(INCIDENT_SCHEMA), tokenRevocations.migrations, incidentMigrations],
};

/** Incidents, messages, notes, export and deadlines (/api/incident/*, except files, which are the file service's). */
export function createIncidentService(given: IncidentDependencies, config: IncidentConfig): IncidentService {
  // Its tenant scopes run as the incident schema's own tenant role (docs/security.md, "Tenant isolation").
  const deps = { ...given, db: serviceDatabase(given.db, INCIDENT_SCHEMA) };
  const lifecycle = createServiceLifecycle({
    ...incidentSchema,
    deps,
    subscriptions: [readModelsSubscription],
  });
  const signer = createIncidentSessionSigner(config.DISCLOSER_TOKEN_PRIVATE_KEY);
  // Revocations are this service's own rows (from auth's events): every replica, and a restarted one, refuses a
  // logged-out or removed user's token, and those issued before a new password or new roles.
  const staffTokens = createStaffTokenVerifier({
    publicKey: config.TOKEN_PUBLIC_KEY,
    isRevoked: (principal) => tokenRevocations.isRevoked(deps.db, principal),
  });
  const shared = { db: deps.db, unitOfWork: lifecycle.unitOfWork, signer, staffTokens };
  const proofOfWork = createProofOfWork({
    db: deps.db,
    // Every replica holds the discloser-token key: a challenge one issues, another verifies.
    secret: config.DISCLOSER_TOKEN_PRIVATE_KEY,
    policy: {
      freeReportsPerHour: config.POW_FREE_REPORTS_PER_COMPANY,
      baseDifficulty: config.POW_BASE_DIFFICULTY,
      maxDifficulty: Math.max(config.POW_BASE_DIFFICULTY, config.POW_MAX_DIFFICULTY),
      challengeTtlMs: config.POW_CHALLENGE_TTL_SECONDS * 1000,
    },
  });
  const router = Router();
  // Before both: the case routes' /:incident_uuid would take /api/incident/retention and /company-key.
  router.use(retentionRoutes({ ...shared, policy: { warningDays: config.RETENTION_WARNING_DAYS } }));
  router.use(companyKeyRoutes(shared));
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
      proofOfWork,
      logger: deps.logger,
      limits: {
        reportPerClient: config.REPORT_LIMIT_PER_CLIENT,
        retrievalPerClient: config.RETRIEVAL_LIMIT_PER_CLIENT,
        retrievalFailureAlertPerCompany: config.RETRIEVAL_FAILURE_ALERT_PER_COMPANY,
      },
      // Every replica holds the discloser-token key: the counters' keys are HMAC-ed with a key derived from it.
      rateLimits: rateLimitCountersFor({
        db: deps.db,
        schema: INCIDENT_SCHEMA,
        secret: config.DISCLOSER_TOKEN_PRIVATE_KEY,
      }),
    }),
  );
  router.use(savedViewRoutes(shared));
  router.use(caseRoutes(shared));

  // Every replica runs one; the record of each reminder and SKIP LOCKED keep each reminder to one emission.
  const deadlines = lifecycle.periodic({
    name: 'deadline-scheduler',
    run: () =>
      sendDeadlineReminders(
        { unitOfWork: lifecycle.unitOfWork },
        { windowMs: config.DEADLINE_DUE_SOON_DAYS * DAY_MS, batchSize: config.DEADLINE_SCAN_BATCH_SIZE },
      ),
    intervalMs: config.DEADLINE_SCAN_INTERVAL_MS,
    words: deadlineScanWords,
  });

  // Every replica runs one; SKIP LOCKED and the record of each warning keep each case to one warning and one deletion.
  const retention = lifecycle.periodic({
    name: 'retention-scheduler',
    run: () =>
      runRetention(
        { unitOfWork: lifecycle.unitOfWork },
        { warningMs: config.RETENTION_WARNING_DAYS * DAY_MS, batchSize: config.RETENTION_SCAN_BATCH_SIZE },
      ),
    intervalMs: config.RETENTION_SCAN_INTERVAL_MS,
    words: retentionWords,
  });

  // Every replica runs one; an advisory lock lets one fold at a time, the others find it taken and skip.
  const reportingFold = lifecycle.periodic({
    name: 'reporting-fold',
    run: () => foldReportingDeltas({ db: deps.db }, { batchSize: config.REPORTING_FOLD_BATCH_SIZE }),
    intervalMs: config.REPORTING_FOLD_INTERVAL_MS,
    words: reportingFoldWords,
  });

  lifecycle.periodic({
    name: 'expired-revocations',
    run: () => tokenRevocations.removeExpired(deps.db),
    intervalMs: CLEANUP_INTERVAL_MS,
    words: housekeepingWords('Removing expired revocations'),
  });
  lifecycle.periodic({
    name: 'expired-proofs-of-work',
    run: () => proofOfWork.removeExpired(),
    intervalMs: CLEANUP_INTERVAL_MS,
    words: housekeepingWords('Removing expired proofs of work'),
  });
  lifecycle.periodic({
    name: 'expired-report-requests',
    run: () => reportRequestRepository.removeExpired(deps.db),
    intervalMs: CLEANUP_INTERVAL_MS,
    words: housekeepingWords('Removing expired report idempotency keys'),
  });

  return {
    name: 'incident',
    router,
    deadlines: { runOnce: deadlines.runOnce },
    retention: { runOnce: retention.runOnce },
    reportingFold: { runOnce: reportingFold.runOnce },
    start: lifecycle.start,
    stop: lifecycle.stop,
  };
}

export const incidentServiceDefinition = defineService({
  name: 'incident',
  configSchema: incidentConfigSchema,
  ports: incidentPorts,
  create: createIncidentService,
});
