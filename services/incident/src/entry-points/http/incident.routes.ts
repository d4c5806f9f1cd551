import { Router, type Request } from 'express';
import {
  discloserRetrievalQuerySchema,
  incidentCreateRequestSchema,
  messageCreateRequestSchema,
} from '@whistle/contracts';
import { NotFoundError, parseBody, parseQuery, rateLimit, type Database, type UnitOfWork } from '@whistle/service-kit';
import type { DiscloserTokenVerifier } from '@whistle/tokens';
import { listFiles } from '../../domain/files/file-read-model';
import { listMessages, postMessage } from '../../domain/messages/incident-messages.use-case';
import { createIncident } from '../../domain/report/create-incident.use-case';
import { retrieveIncidentAsDiscloser } from '../../domain/report/retrieve-incident.use-case';
import type { DiscloserTokenSigner } from '../../domain/tokens/discloser-token-signer';
import { incidentAccess } from './incident-access';

export interface IncidentRoutesDependencies {
  db: Database;
  unitOfWork: UnitOfWork;
  signer: DiscloserTokenSigner;
  verifier: DiscloserTokenVerifier;
  limits: {
    reportPerClient: number;
    reportPerCompany: number;
    retrievalPerClient: number;
    retrievalFailuresPerCompany: number;
  };
}

const hour = 60 * 60 * 1000;
const quarterHour = 15 * 60 * 1000;
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The company a request is about, as rate-limit key: a body or query field, not yet validated. */
const companyKey = (value: unknown) => `company:${typeof value === 'string' ? value : ''}`;

/** An incident id in the path that is not even a uuid is answered like an unknown incident. */
function incidentIdOf(req: Request): string {
  const id = String(req.params.incident_uuid);
  if (!uuidPattern.test(id)) throw new NotFoundError('Incident not found');
  return id.toLowerCase();
}

function bearerOf(req: Request): string | undefined {
  return /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
}

export function incidentRoutes(deps: IncidentRoutesDependencies): Router {
  const router = Router();
  const actorFor = incidentAccess(deps.verifier);
  const tooManyReports = 'Too many reports were sent, please try again later';
  const tooManyRetrievals = 'Too many attempts to open a report, please try again later';

  router.post(
    '/api/incident',
    rateLimit({ windowMs: hour, limit: deps.limits.reportPerClient, message: tooManyReports }),
    rateLimit({
      windowMs: hour,
      limit: deps.limits.reportPerCompany,
      message: tooManyReports,
      key: (req) => companyKey(req.body?.url_identifier),
    }),
    async (req, res) => {
      res.status(201).json(await createIncident(deps, parseBody(incidentCreateRequestSchema, req.body)));
    },
  );

  router.get(
    '/api/incident/discloser',
    rateLimit({ windowMs: quarterHour, limit: deps.limits.retrievalPerClient, message: tooManyRetrievals }),
    rateLimit({
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
        { urlIdentifier: query.url_identifier, retrievalId: query.retrieval_id, authToken: bearerOf(req) },
      );
      res.json(view);
    },
  );

  router.post('/api/incident/message', async (req, res) => {
    const input = parseBody(messageCreateRequestSchema, req.body);
    const actor = await actorFor(req, input.incident_uuid.toLowerCase());
    res.status(201).json(await postMessage(deps, actor, input.content));
  });

  router.get('/api/incident/:incident_uuid/message', async (req, res) => {
    res.json(await listMessages(deps.db, await actorFor(req, incidentIdOf(req))));
  });

  router.get('/api/incident/:incident_uuid/file', async (req, res) => {
    res.json(await listFiles(deps.db, await actorFor(req, incidentIdOf(req))));
  });

  return router;
}
