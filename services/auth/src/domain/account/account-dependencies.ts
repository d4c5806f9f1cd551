import type { Mailer } from '@whistle/mailer';
import type { Database, Logger, RateLimitCounters, UnitOfWork } from '@whistle/service-kit';
import type { KeyEncryptionKey } from '../secrets/key-encryption';
import type { TokenIssuer } from '../tokens/token-issuer';

export interface AccountDependencies {
  db: Database;
  /** Writes that announce events: one transaction with the outbox, published after COMMIT. */
  unitOfWork: UnitOfWork;
  kek: KeyEncryptionKey;
  issuer: TokenIssuer;
  mailer: Mailer;
  logger: Logger;
  /** Origin of the browser app, for links in e-mails. */
  publicUrl: string;
  /** Where the sign-in, MFA, reset and SSO limits count: shared by the replicas in a cluster. */
  rateLimits: RateLimitCounters;
  /** When passwords from before stop being accepted at sign-in (docs/security.md, "Migration"); none: never. */
  legacyPasswordSignInUntil?: Date;
}

/**
 * Sends outside the request: the answer does not wait for SMTP (nor reveal by its timing whether a
 * mail was sent at all). A failure is logged without the message, which may hold a link.
 */
export function sendInBackground(
  deps: Pick<AccountDependencies, 'mailer' | 'logger'>,
  message: Parameters<Mailer['send']>[0],
  kind: string,
): void {
  deps.mailer.send(message).catch((err: unknown) => deps.logger.error({ err, mail: kind }, 'account e-mail not sent'));
}
