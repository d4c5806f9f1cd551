import type { KeyEndorsementRequest, KeyEndorsementView } from '@whistle/contracts';
import type { Queryable } from '@whistle/service-kit';

/** Admins' endorsements of team members' signing keys, as their browsers signed them (migration 022). */
export const keyEndorsementRepository = {
  /** Stores an endorsement; the same endorser's earlier one of the key (another role) is replaced. */
  async put(
    db: Queryable,
    companyId: string,
    endorsement: KeyEndorsementRequest & { endorsedBy: string },
  ): Promise<void> {
    await db.query(
      `insert into auth.key_endorsement
         (company_id, key_id, signing_public_key, role, endorsed_at, endorser_key_id, endorsed_by, signature)
       values ($1, $2, $3, $4, $5, $6, $7, $8)
       on conflict (company_id, key_id, endorser_key_id) do update
         set signing_public_key = excluded.signing_public_key, role = excluded.role,
             endorsed_at = excluded.endorsed_at, endorsed_by = excluded.endorsed_by,
             signature = excluded.signature, created_at = now()`,
      [
        companyId,
        endorsement.key_id,
        endorsement.signing_public_key,
        endorsement.role,
        endorsement.endorsed_at,
        endorsement.endorser_key_id,
        endorsement.endorsedBy,
        endorsement.signature,
      ],
    );
  },

  /** The company's endorsements, as the discloser's browser checks them. */
  async ofCompany(db: Queryable, companyId: string): Promise<KeyEndorsementView[]> {
    const { rows } = await db.query<KeyEndorsementView>(
      `select company_id, key_id, signing_public_key, role, endorsed_at, endorser_key_id, signature
         from auth.key_endorsement where company_id = $1 order by key_id, endorser_key_id`,
      [companyId],
    );
    return rows;
  },
};
