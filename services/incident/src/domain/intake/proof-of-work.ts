import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ProofOfWorkChallenge, ProofOfWorkSolution } from '@whistle/contracts';
import { MAX_PROOF_OF_WORK_DIFFICULTY, verifyProofOfWork } from '@whistle/crypto';
import { InputError, NotFoundError, type Database } from '@whistle/service-kit';

/**
 * How much work a report costs (docs/security.md, "Report flooding"): nothing while a company receives no more
 * than `freeReportsPerHour`; past it, `baseDifficulty` bits, one more each time the volume doubles again, at most
 * `maxDifficulty`. An attacker's flood pays for itself report by report; a discloser's browser does the work while
 * they write.
 */
export interface ProofOfWorkPolicy {
  freeReportsPerHour: number;
  baseDifficulty: number;
  maxDifficulty: number;
  challengeTtlMs: number;
}

export function difficultyFor(reportsLastHour: number, policy: ProofOfWorkPolicy): number {
  if (reportsLastHour < policy.freeReportsPerHour) return 0;
  const doublings = Math.floor(Math.log2(reportsLastHour / policy.freeReportsPerHour));
  return Math.min(policy.maxDifficulty, MAX_PROOF_OF_WORK_DIFFICULTY, policy.baseDifficulty + doublings);
}

/**
 * The volume may grow while a discloser writes: a solution is accepted at up to this many bits below the current
 * difficulty (a quarter of the work), never at 0 once work is asked (a stock of free challenges would be a bypass).
 */
const DIFFICULTY_SLACK_BITS = 2;

const refused = (message: string) => new InputError('Bad Request', { proof_of_work: [message] });
const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

export interface ProofOfWork {
  /** A fresh challenge for one report to the company, at its current difficulty. */
  issue(urlIdentifier: string): Promise<ProofOfWorkChallenge>;
  /**
   * Accepts the report's solution, or throws a 400 naming `proof_of_work`: missing or wrong while work is asked,
   * of another company, expired, or already spent on another report (the same report sent again passes).
   */
  check(urlIdentifier: string, solution: ProofOfWorkSolution | undefined, idempotencyKey?: string): Promise<void>;
  /** Forgets spent challenges past their expiry. */
  removeExpired(): Promise<number>;
}

/**
 * Stateless challenges `difficulty.expiresAtSeconds.id.mac`, the MAC (a key derived from `secret`, which every
 * replica shares) binding them to the company's url identifier; the spent ones are rows until they expire.
 */
export function createProofOfWork({
  db,
  secret,
  policy,
}: {
  db: Database;
  secret: string | Buffer;
  policy: ProofOfWorkPolicy;
}): ProofOfWork {
  const key = Buffer.from(hkdfSync('sha256', secret, 'whistle', 'proof-of-work-challenges', 32));
  const macOf = (urlIdentifier: string, body: string) =>
    createHmac('sha256', key).update(`${urlIdentifier}\n${body}`).digest('base64url');

  async function currentDifficulty(urlIdentifier: string): Promise<number | undefined> {
    // Public requests run as the service, before any company scope: counted over the company's index.
    const { rows } = await db.query<{ id: string; reports: number }>(
      `select c.id,
              (select count(*)::int from incident.incident i
                where i.company_id = c.id and i.created_at > now() - interval '1 hour') as reports
         from incident.company c where c.url_identifier = $1`,
      [urlIdentifier],
    );
    return rows[0] ? difficultyFor(rows[0].reports, policy) : undefined;
  }

  function parse(urlIdentifier: string, challenge: string) {
    const parts = challenge.split('.');
    if (parts.length !== 4) return undefined;
    const [difficulty, expires, id, mac] = parts as [string, string, string, string];
    const expected = Buffer.from(macOf(urlIdentifier, `${difficulty}.${expires}.${id}`));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    return { difficulty: Number(difficulty), expiresAt: Number(expires) * 1000, id };
  }

  return {
    async issue(urlIdentifier) {
      const difficulty = await currentDifficulty(urlIdentifier);
      if (difficulty === undefined) throw new NotFoundError('Company not found');
      const expiresAt = Math.ceil((Date.now() + policy.challengeTtlMs) / 1000);
      const body = `${difficulty}.${expiresAt}.${randomBytes(16).toString('base64url')}`;
      return {
        challenge: `${body}.${macOf(urlIdentifier, body)}`,
        difficulty,
        expires: new Date(expiresAt * 1000).toISOString(),
      };
    },

    async check(urlIdentifier, solution, idempotencyKey) {
      const required = await currentDifficulty(urlIdentifier);
      // An unknown company is the report's own 400 (url_identifier), after this. No work asked: whatever came along
      // is not looked at (nor spent), so a report refused for its fields and sent again is not refused for this.
      if (required === undefined || required === 0) return;
      if (!solution) throw refused('Proof of work required: solve a challenge from GET /api/incident/challenge');
      const challenge = parse(urlIdentifier, solution.challenge);
      if (!challenge) throw refused('Invalid challenge');
      if (challenge.expiresAt <= Date.now()) throw refused('Challenge expired');
      if (challenge.difficulty < Math.max(1, required - DIFFICULTY_SLACK_BITS))
        throw refused('Challenge too easy for the current volume: solve a new one');
      if (!(await verifyProofOfWork(solution.challenge, solution.nonce, challenge.difficulty)))
        throw refused('Invalid proof of work');
      const keyHash = idempotencyKey === undefined ? null : sha256(idempotencyKey);
      const { rows } = await db.query<{ spent_before: boolean; idempotency_key_hash: string | null }>(
        `insert into incident.proof_of_work_spent (challenge_id, idempotency_key_hash, expires_at)
         values ($1, $2, to_timestamp($3::double precision / 1000))
         on conflict (challenge_id) do update set challenge_id = excluded.challenge_id
         returning (xmax <> 0) as spent_before, idempotency_key_hash`,
        [challenge.id, keyHash, challenge.expiresAt],
      );
      const row = rows[0];
      // Spent before: only the same report, sent again with its idempotency key, may use it again.
      if (row?.spent_before && (keyHash === null || row.idempotency_key_hash !== keyHash))
        throw refused('Challenge already used');
    },

    async removeExpired() {
      const { rowCount } = await db.query('delete from incident.proof_of_work_spent where expires_at < now()');
      return rowCount;
    },
  };
}
