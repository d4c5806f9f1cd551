import { randomBytes } from 'node:crypto';
import type { IncidentDiscloserView, IncidentStatus, ReportChannel } from '@whistle/contracts';
import { hashDiscloserAuthToken, verifyDiscloserAuthToken } from '@whistle/crypto';
import { AuthenticationError, type Database } from '@whistle/service-kit';
import { incidentRepository } from '../../data-access/incident.repository';
import type { IncidentSessionSigner } from '../tokens/incident-session-signer';
import { nodeSha256 } from '../tokens/sha256';

export interface RetrieveIncidentDependencies {
  db: Database;
  tokens: IncidentSessionSigner;
}

/** One answer for an unknown company, an unknown retrieval id and a wrong token: none tells which. */
export const invalidSecretCode = () => new AuthenticationError('Invalid secret code');

// Checked when the retrieval id matches nothing, so both paths do the same hashing work.
const decoyHash = hashDiscloserAuthToken(randomBytes(32).toString('base64url'), nodeSha256);

/**
 * The review page's fetch: the secret code's retrieval id finds the incident, its auth token proves
 * the discloser; the answer is the incident as stored (encrypted), the material to decrypt it in
 * the browser, and a session token for this one incident.
 */
export async function retrieveIncidentAsDiscloser(
  deps: RetrieveIncidentDependencies,
  query: { urlIdentifier: string; retrievalId: string; authToken: string | undefined },
): Promise<IncidentDiscloserView> {
  const incident = await incidentRepository.findForDiscloser(
    deps.db,
    query.urlIdentifier,
    query.retrievalId.toLowerCase(),
  );
  const presented = query.authToken ?? '';
  const matches = await verifyDiscloserAuthToken(
    presented,
    incident?.discloser_auth_token_hash ?? (await decoyHash),
    nodeSha256,
  );
  if (!incident || !matches || query.authToken === undefined) throw invalidSecretCode();

  const categories = await incidentRepository.categoriesOf(deps.db, incident.company_id, incident.id);
  const fields = await incidentRepository.fieldsOf(deps.db, incident.id);
  const session = await deps.tokens.signDiscloser({ incidentId: incident.id, companyId: incident.company_id });
  return {
    uuid: incident.id,
    display_report_number: incident.display_report_number,
    status: { name: incident.status as IncidentStatus },
    report_channel: incident.report_channel as ReportChannel,
    report_anonymously: incident.report_anonymously,
    created: incident.created_at.toISOString(),
    updated: incident.updated_at.toISOString(),
    last_activity_at: incident.last_activity_at.toISOString(),
    location: { uuid: incident.location_id, name: incident.location_name },
    categories,
    fields,
    credential: { public_key: incident.public_key, aes_encrypted_private_key: incident.aes_encrypted_private_key },
    aes_salt: incident.aes_salt,
    aes_iv: incident.aes_iv,
    discloser_encrypted_passphrase: incident.discloser_encrypted_passphrase,
    discloser_team_keys: incident.discloser_team_keys,
    token: session.token,
    token_expires_at: session.expiresAt.toISOString(),
    recorded_by_staff: incident.recorded_by !== null,
    record_approved_at: incident.record_approved_at?.toISOString() ?? null,
  };
}
