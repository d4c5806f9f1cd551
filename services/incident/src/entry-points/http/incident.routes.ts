import { Router, type Request, type RequestHandler } from 'express';
import {
  discloserRetrievalQuerySchema,
  incidentCreateRequestSchema,
  messageCreateRequestSchema,
  staffMessageCreateRequestSchema,
} from '@whistle/contracts';
import {
  InputError,
  parseBody,
  parseQuery,
  rateLimit,
  type Database,
  type RateLimitCounters,
  type UnitOfWork,
} from '@whistle/service-kit';
import { bearerToken } from '@whistle/tokens';
import { listFiles } from '../../domain/files/file-read-model';
import { discloserMessageLimits } from '../../domain/messages/discloser-message-limits';
import { listMessages, postMessage } from '../../domain/messages/incident-messages.use-case';
import { createIncident } from '../../domain/report/create-incident.use-case';
import type { ReportWriter } from '../../domain/report/report-writer';
import { retrieveIncidentAsDiscloser } from '../../domain/report/retrieve-incident.use-case';
import type { IncidentSessionSigner } from '../../domain/tokens/incident-session-signer';
import { actorOf, callerScope, carriesStaffToken, type CallerScopeDependencies } from './incident-access';
import { incidentIdOf } from './incident-id';

export interface IncidentRoutesDependencies extends Required<CallerScopeDependencies> {
  db: Database;
  unitOfWork: UnitOfWork;
  /** Where new reports are written, together with those arriving at the same time. */
  reports: ReportWriter;
  signer: IncidentSessionSigner;
  limits: {
    reportPerClient: number;
    reportPerCompany: number;
    retrievalPerClient: number;
    retrievalFailuresPerCompany: number;
  };
  /** Where those limits count: shared by the replicas in a cluster. */
  rateLimits: RateLimitCounters;
}

const hour = 60 * 60 * 1000;
const quarterHour = 15 * 60 * 1000;

/** The company a request is about, as rate-limit key: a body or query field, not yet validated. */
const companyKey = (value: unknown) => `company:${typeof value === 'string' ? value : ''}`;

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
    rateLimit({
      name: 'report-company',
      counters: deps.rateLimits,
      windowMs: hour,
      limit: deps.limits.reportPerCompany,
      message: tooManyReports,
      key: (req) => companyKey(req.body?.url_identifier),
    }),
    async (req, res) => {
      const input = parseBody(incidentCreateRequestSchema, req.body);
      res.status(201).json(await createIncident(deps, input, idempotencyKeyOf(req)));
    },
  );

  router.get(
    '/api/incident/discloser',
    rateLimit({
      name: 'retrieval-client',
      counters: deps.rateLimits,
      windowMs: quarterHour,
      limit: deps.limits.retrievalPerClient,
      message: tooManyRetrievals,
    }),
    rateLimit({
      name: 'retrieval-failures-company',
      counters: deps.rateLimits,
      windowMs: quarterHour,
      limit: deps.limits.retrievalFailuresPerCompany,
      message: tooManyRetrievals,
      key: (req) => companyKey(req.query.url_identifier),
      skipSuccessfulRequests: true,
    }),
    async (req, res) => {
      const query = parseQuery(discloserRetrievalQuerySchema, req.query);
      const view = await retrieveIncidentAsDiscloser(
        { db: deps.db, tokens: deps.signer },
        { urlIdentifier: query.url_identifier, retrievalId: query.retrieval_id, authToken: bearerToken(req) },
      );
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
    res.status(201).json(await postMessage(deps, actor, input.content, { feedback: input.feedback }));
  });

  router.get('/api/incident/:incident_uuid/message', discloserOrStaff, async (req, res) => {
    res.json(await listMessages(deps.db, await actorOf(deps.db, req, incidentIdOf(req))));
  });

  router.get('/api/incident/:incident_uuid/file', discloserOrStaff, async (req, res) => {
    res.json(await listFiles(deps.db, await actorOf(deps.db, req, incidentIdOf(req))));
  });

  return router;
}
