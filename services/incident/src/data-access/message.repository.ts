import type { Queryable } from '@whistle/service-kit';

export interface MessageRow {
  id: string;
  incident_id: string;
  content: string;
  sender_source: 'DISCLOSER' | 'STAFF';
  sender_name: string;
  feedback: boolean;
  final: boolean;
  created_at: Date;
  signer_key_id: string | null;
  signature_nonce: string | null;
  signature: string | null;
}

/** A staff message's signature as the sender's browser made it (docs/security.md, "Signed staff messages"). */
export interface MessageSignature {
  signerKeyId: string;
  nonce: string;
  signature: string;
}

const MESSAGE_COLUMNS =
  'id, incident_id, content, sender_source, sender_name, feedback, final, created_at, signer_key_id, signature_nonce, signature';

/** An incident's messages (encrypted content), scoped by company. */
export const messageRepository = {
  async insert(
    db: Queryable,
    message: {
      id: string;
      incidentId: string;
      companyId: string;
      content: string;
      senderSource: 'DISCLOSER' | 'STAFF';
      senderName: string;
      senderUserId: string | null;
      feedback: boolean;
      /** Sent with the closing of the case. */
      final?: boolean;
      signature?: MessageSignature | null;
    },
  ): Promise<MessageRow> {
    const { rows } = await db.query<MessageRow>(
      `insert into incident.message (id, incident_id, company_id, content, sender_source, sender_name, sender_user_id,
                                     feedback, final, signer_key_id, signature_nonce, signature)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       returning ${MESSAGE_COLUMNS}`,
      [
        message.id,
        message.incidentId,
        message.companyId,
        message.content,
        message.senderSource,
        message.senderName,
        message.senderUserId,
        message.feedback,
        message.final ?? false,
        message.signature?.signerKeyId ?? null,
        message.signature?.nonce ?? null,
        message.signature?.signature ?? null,
      ],
    );
    return rows[0];
  },

  /**
   * The discloser's messages on a case in the last hour, counted while the case's row is locked, so concurrent
   * messages are counted one after the other.
   */
  async discloserMessagesInLastHour(tx: Queryable, companyId: string, incidentId: string): Promise<number> {
    await tx.query('select 1 from incident.incident where company_id = $1 and id = $2 for no key update', [
      companyId,
      incidentId,
    ]);
    const { rows } = await tx.query<{ count: number }>(
      `select count(*)::int as count from incident.message
        where company_id = $1 and incident_id = $2 and sender_source = 'DISCLOSER'
          and created_at > now() - interval '1 hour'`,
      [companyId, incidentId],
    );
    return rows[0]?.count ?? 0;
  },

  async ofIncident(db: Queryable, companyId: string, incidentId: string): Promise<MessageRow[]> {
    const { rows } = await db.query<MessageRow>(
      `select ${MESSAGE_COLUMNS} from incident.message
        where company_id = $1 and incident_id = $2 order by created_at, id`,
      [companyId, incidentId],
    );
    return rows;
  },

  /** The id of staff member `userId`'s current key (as auth announced it: incident.staff_key), if they have one. */
  async currentKeyOf(db: Queryable, companyId: string, userId: string): Promise<string | undefined> {
    const { rows } = await db.query<{ key_id: string }>(
      'select key_id from incident.staff_key where company_id = $1 and user_id = $2',
      [companyId, userId],
    );
    return rows[0]?.key_id;
  },
};
