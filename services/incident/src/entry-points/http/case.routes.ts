import { Router, type Response } from 'express';
import {
  caseLinkRequestSchema,
  INCIDENT_EXPORT_CONTENT_TYPE,
  incidentExportQuerySchema,
  incidentListQuerySchema,
  incidentUpdateRequestSchema,
  noteCreateRequestSchema,
  reportingQuerySchema,
  searchCorpusQuerySchema,
} from '@whistle/contracts';
import { NotAllowedError, parseBody, parseQuery, type Database, type UnitOfWork } from '@whistle/service-kit';
import type { StaffTokenVerifier } from '@whistle/tokens';
import { exportCases } from '../../domain/cases/export-cases.use-case';
import { changeCaseLink } from '../../domain/cases/link-cases.use-case';
import { listCases } from '../../domain/cases/list-cases.use-case';
import { recordCasePrint } from '../../domain/cases/print-case.use-case';
import { searchCorpus } from '../../domain/cases/search-corpus.use-case';
import { addNote, listNotes } from '../../domain/cases/notes.use-case';
import { updateCase } from '../../domain/cases/update-case.use-case';
import { viewCase } from '../../domain/cases/view-case.use-case';
import { companyReport } from '../../domain/reporting/company-report.use-case';
import type { IncidentSessionSigner } from '../../domain/tokens/incident-session-signer';
import { callerScope, staffSignInOf, staffViewerOf } from './incident-access';
import { incidentIdOf } from './incident-id';

/** NDJSON, one row per line, with the exact count first (the browser shows progress against it); waits on drain. */
async function sendNdjson(res: Response, count: number, rows: AsyncIterable<unknown>): Promise<void> {
  res.set({ 'Content-Type': INCIDENT_EXPORT_CONTENT_TYPE, 'X-Total-Count': String(count) });
  for await (const row of rows) {
    if (!res.write(`${JSON.stringify(row)}\n`)) await new Promise((resolve) => res.once('drain', resolve));
  }
  res.end();
}

export interface CaseRoutesDependencies {
  db: Database;
  unitOfWork: UnitOfWork;
  signer: IncidentSessionSigner;
  staffTokens: StaffTokenVerifier;
}

/**
 * Case management for staff: list, export, reporting, the case itself, its update, its printing and its private notes; each run
 * as the staff member's company (callerScope).
 */
export function caseRoutes(deps: CaseRoutesDependencies): Router {
  const router = Router();
  const staff = callerScope(deps);

  router.get('/api/incident', staff, async (req, res) => {
    res.json(await listCases(deps.db, staffViewerOf(req), parseQuery(incidentListQuerySchema, req.query)));
  });

  // NDJSON, one case per line, streamed in batches: the browser decrypts and builds the CSV.
  router.get('/api/incident/export', staff, async (req, res) => {
    const { count, rows } = await exportCases(
      deps,
      staffViewerOf(req),
      parseQuery(incidentExportQuerySchema, req.query),
    );
    await sendNdjson(res, count, rows);
  });

  // Not in the spec (issue 23): what the browser needs to search the words of every case the person may open.
  router.get('/api/incident/search-corpus', staff, async (req, res) => {
    parseQuery(searchCorpusQuerySchema, req.query);
    const { count, rows } = await searchCorpus(deps, staffViewerOf(req));
    await sendNdjson(res, count, rows);
  });

  // Before /:incident_uuid. The role is checked before the period: a non-admin learns nothing from a 400.
  router.get('/api/incident/reporting', staff, async (req, res) => {
    const viewer = staffViewerOf(req);
    if (!viewer.roles.includes('ADMIN')) throw new NotAllowedError('Reporting is for admins');
    res.json(await companyReport(deps.db, viewer, parseQuery(reportingQuerySchema, req.query)));
  });

  router.post('/api/incident/note', staff, async (req, res) => {
    const input = parseBody(noteCreateRequestSchema, req.body);
    res.status(201).json(await addNote(deps, staffViewerOf(req), input.incident_uuid.toLowerCase(), input.content));
  });

  router.get('/api/incident/:incident_uuid/note', staff, async (req, res) => {
    res.json(await listNotes(deps.db, staffViewerOf(req), incidentIdOf(req)));
  });

  router.get('/api/incident/:incident_uuid', staff, async (req, res) => {
    res.json(await viewCase(deps, staffViewerOf(req), staffSignInOf(req), incidentIdOf(req)));
  });

  router.post('/api/incident/:incident_uuid/link', staff, async (req, res) => {
    const { incident_uuid: other } = parseBody(caseLinkRequestSchema, req.body);
    const change = { incidentId: incidentIdOf(req), linkedIncidentId: other.toLowerCase(), linked: true };
    res.json({ linked_cases: await changeCaseLink(deps, staffViewerOf(req), change) });
  });

  router.delete('/api/incident/:incident_uuid/link/:linked_uuid', staff, async (req, res) => {
    const change = { incidentId: incidentIdOf(req), linkedIncidentId: incidentIdOf(req, 'linked_uuid'), linked: false };
    res.json({ linked_cases: await changeCaseLink(deps, staffViewerOf(req), change) });
  });

  router.post('/api/incident/:incident_uuid/print', staff, async (req, res) => {
    await recordCasePrint(deps, staffViewerOf(req), incidentIdOf(req));
    res.status(204).end();
  });

  router.put('/api/incident/:incident_uuid', staff, async (req, res) => {
    const input = parseBody(incidentUpdateRequestSchema, req.body);
    res.json(await updateCase(deps, staffViewerOf(req), incidentIdOf(req), input));
  });

  return router;
}
