import { Router } from 'express';
import { auditLogQuerySchema } from '@whistle/contracts';
import { parseQuery, type Database } from '@whistle/service-kit';
import { requireStaff, staffOf, type StaffTokenVerifier } from '@whistle/tokens';
import { auditEntries, auditLog, filterOf, verifyAuditChain } from '../../domain/audit-log.use-case';
import { auditCsv } from './audit-csv';

/** The company's audit trail, for its admins: read, verify, export (/api/account/company/audit_log*). */
export function auditLogRoutes(deps: { db: Database }, verifier: StaffTokenVerifier): Router {
  const router = Router();
  const admin = requireStaff(verifier, { roles: ['ADMIN'] });

  router.get('/api/account/company/audit_log', admin, async (req, res) => {
    res.json(await auditLog(deps.db, staffOf(req), parseQuery(auditLogQuerySchema, req.query)));
  });

  router.get('/api/account/company/audit_log/verify', admin, async (req, res) => {
    res.json(await verifyAuditChain(deps.db, staffOf(req)));
  });

  // CSV made here: the trail holds ids, actions and staff names only, never report content.
  router.get('/api/account/company/audit_log/export', admin, async (req, res) => {
    const filter = filterOf(staffOf(req), parseQuery(auditLogQuerySchema, req.query));
    res.type('text/csv; charset=utf-8').attachment('audit-log.csv');
    const csv = auditCsv();
    csv.pipe(res);
    for await (const entry of auditEntries(deps.db, filter)) {
      if (!csv.write(auditCsv.row(entry))) await new Promise((resolve) => csv.once('drain', resolve));
    }
    csv.end();
  });

  return router;
}
