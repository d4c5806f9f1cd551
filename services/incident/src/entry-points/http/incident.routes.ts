import { Router, type Request, type RequestHandler } from 'express';
import {
  discloserRetrievalQuerySchema,
  incidentCreateRequestSchema,
  messageCreateRequestSchema,
  proofOfWorkChallengeQuerySchema,
  staffMessageCreateRequestSchema,
} from '@whistle/contracts';
import {
  InputError,
  type Logger,
  parseBody,
  parseQuery,
  rateLimit,
  type Database,
  type RateLimitCounters,
  type UnitOfWork,
  WhistleError,
} from '@whistle/service-kit';
import { bearerToken } from '@whistle/tokens';
import { listFiles } from '../../domain/files/file-read-model';
import type { ProofOfWork } from '../../domain/intake/proof-of-work';
import { retrievalFailureAlert } from '../../domain/intake/retrieval-failure-alert';
import { discloserMessageLimits } from '../../domain/messages/discloser-message-limits';
import { listMessages, postMessage } from '../../domain/messages/incident-messages.use-case';
import { createIncident } from '../../domain/report/create-incident.use-case';
import { approveRecord } from '../../domain/report/approve-record.use-case';
import { refuseRecorderGrant, staffRecorder } from '../../domain/report/staff-recorder';
import type { ReportWriter } from '../../domain/report/report-writer';
import { retrieveIncidentAsDiscloser } from '../../domain/report/retrieve-incident.use-case';
import type { IncidentSessionSigner } from '../../domain/tokens/incident-session-signer';
import {
  actorOf,
  callerScope,
  carriesStaffToken,
  staffViewerOf,
  type CallerScopeDependencies,
} from './incident-access';
import { incidentIdOf } from './incident-id';

export interface IncidentRoutesDependencies extends Required<CallerScopeDependencies> {
  db: Database;
  unitOfWork: UnitOfWork;
  /** Where new reports are written, together with those arriving at the same time. */
  reports: ReportWriter;
  signer: IncidentSessionSigner;
  /** What a report costs while its company receives many (in place of a per-company cap, which locked it out). */
  proofOfWork: ProofOfWork;
  limits: {
    reportPerClient: number;
    retrievalPerClient: number;
    /** Failed retrievals of one company per 15 minutes that raise an alert (never a refusal). */
    retrievalFailureAlertPerCompany: number;
  };
  logger: Logger;
  /** Where those limits count: shared by the replicas in a cluster. */
  rateLimits: RateLimitCounters;
}

const hour = 60 * 60 * 1000;
const quarterHour = 15 * 60 * 1000;

/**
 * The report's `Idempotency-Key` header, if sent: a random string made by the browser for one report, at least
 * 128 bits' worth (a UUID, or 22+ base64url characters).
 */
function idempotencyKeyOf(req: Request): string | undefined {
  const key = req.get('Idempotency-Key');
  if (key === undefined) return undefined;
  if (!/^[A-Za-z0-9_-]{22,128}$/.test(key))
    throw new InputError('Bad Request', { 'Idempotency-Key': ['Invalid idempotency key'] });
  return key;
}

/** What disclosers call (report, retrieval) and what disclosers and staff share (a case's thread and files). */
export function incidentRoutes(deps: IncidentRoutesDependencies): Router {
  const router = Router();
  // The case's thread and files, for its discloser (session token) or staff; run as the token's company.
  const discloserOrStaff = callerScope(deps);
  const tooManyReports = 'Too many reports were sent, please try again later';
  const tooManyRetrievals = 'Too many attempts to open a report, please try again later';

  router.post(
    '/api/incident',
    rateLimit({
      name: 'report-client',
      counters: deps.rateLimits,
      windowMs: hour,
      limit: deps.limits.reportPerClient,
      message: tooManyReports,
    }),
    async (req, res) => {
      const { proof_of_work: solution, ...input } = parseBody(incidentCreateRequestSchema, req.body);
      const idempotencyKey = idempotencyKeyOf(req);
      refuseRecorderGrant(input);
      await deps.proofOfWork.check(input.url_identifier, solution, idempotencyKey);
      res.status(201).json(await createIncident(deps, input, idempotencyKey));
    },
  );

  // A report a staff member took by telephone or in a meeting (art. 18): a staff token only, no proof of work.
  const staffOnly = callerScope({ staffTokens: deps.staffTokens });
  router.post('/api/incident/recorded', staffOnly, async (req, res) => {
    const { proof_of_work: _ignored, ...input } = parseBody(incidentCreateRequestSchema, req.body);
    const idempotencyKey = idempotencyKeyOf(req);
    const recorder = await staffRecorder(deps.db, staffViewerOf(req), input);
    res.status(201).json(await createIncident(deps, input, idempotencyKey, recorder));
  });

  // The reporter approves the record of their report: their session for this case only.
  router.post('/api/incident/:incident_uuid/record-approval', discloserOrStaff, async (req, res) => {
    res.json(await approveRecord(deps, await actorOf(deps.db, req, incidentIdOf(req))));
  });

  // Each challenge is a MAC and a count over an index: cheap, yet limited per client like the other public calls.
  router.get(
    '/api/incident/challenge',
    rateLimit({
      name: 'challenge-client',
      counters: deps.rateLimits,
      windowMs: quarterHour,
      limit: 60,
      message: 'Too many challenges were asked for, please try again later',
    }),
    async (req, res) => {
      const query = parseQuery(proofOfWorkChallengeQuerySchema, req.query);
      res.set('Cache-Control', 'no-store').json(await deps.proofOfWork.issue(query.url_identifier));
    },
  );

  const retrievalFailed = retrievalFailureAlert({
    counters: deps.rateLimits,
    threshold: deps.limits.retrievalFailureAlertPerCompany,
    windowMs: quarterHour,
    logger: deps.logger,
  });

  router.get(
    '/api/incident/discloser',
    rateLimit({
      name: 'retrieval-client',
      counters: deps.rateLimits,
      windowMs: quarterHour,
      limit: deps.limits.retrievalPerClient,
      message: tooManyRetrievals,
    }),
    async (req, res) => {
      const query = parseQuery(discloserRetrievalQuerySchema, req.query);
      const view = await retrieveIncidentAsDiscloser(
        { db: deps.db, tokens: deps.signer },
        { urlIdentifier: query.url_identifier, retrievalId: query.retrieval_id, authToken: bearerToken(req) },
      ).catch(async (error: unknown) => {
        // A wrong secret code is counted for the company's alert; it locks no one out.
        // Counting never changes the answer: a counter that cannot be written only misses one failure.
        if (error instanceof WhistleError && error.status === 401)
          await retrievalFailed(query.url_identifier).catch(() => undefined);
        throw error;
      });
      res.json(view);
    },
  );

  // Disclosers' messages per client address (staff replies are not counted: a company's staff may share one).
  const discloserMessagesPerClient = rateLimit({
    name: 'message-client',
    counters: deps.rateLimits,
    windowMs: hour,
    limit: discloserMessageLimits.perClientPerHour,
    message: 'Too many messages were sent, please try again later',
  });
  const messageLimit: RequestHandler = (req, res, next) =>
    carriesStaffToken(req) ? next() : discloserMessagesPerClient(req, res, next);

  // Staff may mark a reply as the feedback the directive requires; a discloser's body has no such field.
  router.post('/api/incident/message', messageLimit, discloserOrStaff, async (req, res) => {
    const input = carriesStaffToken(req)
      ? parseBody(staffMessageCreateRequestSchema, req.body)
      : { ...parseBody(messageCreateRequestSchema, req.body), feedback: false };
    const actor = await actorOf(deps.db, req, input.incident_uuid.toLowerCase());
    const signature = 'signature' in input ? input.signature : undefined;
    res.status(201).json(await postMessage(deps, actor, input.content, { feedback: input.feedback, signature }));
  });

  router.get('/api/incident/:incident_uuid/message', discloserOrStaff, async (req, res) => {
    res.json(await listMessages(deps.db, await actorOf(deps.db, req, incidentIdOf(req))));
  });

  router.get('/api/incident/:incident_uuid/file', discloserOrStaff, async (req, res) => {
    res.json(await listFiles(deps.db, await actorOf(deps.db, req, incidentIdOf(req))));
  });

  return router;
}
