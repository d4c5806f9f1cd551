import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { declineCompanyKeyRequest, getTeamKeys, type KeyRecipient } from '@whistle/api-client';
import { teamRole, type TeamKey } from '@whistle/contracts';
import { Button, formatDate, Spinner, TableScroll, useLoad } from '@whistle/ui';
import { useStaffSession } from '@whistle/ui/staff';
import { useKeysFailure } from '../keys-failure';
import { useKeyringState } from '../use-keyring-state';
import { CompanyKeyRotationAction } from './company-key-rotation.action';
import { CompareFingerprintDialog } from './compare-fingerprint.dialog';
import { RecoveryKitAction } from './recovery-kit.action';

/**
 * What the admin is about to do after comparing a fingerprint: grant the company key (answering a request, or not)
 * and confirm the key, or only confirm it (someone who does not get the company key, e.g. a handler).
 */
interface Grant {
  person: TeamKey;
  fingerprint: string;
  requestId?: string;
  purpose: 'grant' | 'endorse';
}

/**
 * /company/settings/security, "Report access": who holds the company key, who asks for it, whose key an admin
 * confirmed for the reporters' pages, the recovery kit, and the company key's rotation.
 * Only an admin's browser that holds the key can grant it, so without it the section points to the banner that
 * restores it.
 */
export function ReportAccessSection({ companyName, companyId }: { companyName: string; companyId: string }) {
  const { t } = useTranslation('settings');
  const { keyring } = useStaffSession();
  const keyringState = useKeyringState(keyring);
  const titleId = useId();
  // Locked keys hold nothing: asked again once they are unlocked.
  const status = useLoad(
    async () => (keyringState === 'unlocked' ? keyring.companyKeyStatus() : undefined),
    [keyring, keyringState],
    { shows: () => true },
  );
  const held = status.data?.state === 'held';
  return (
    <section className="wh-card" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('reportAccess.title')}</h2>
      {status.loading ? (
        <Spinner />
      ) : status.error ? (
        <p className="wh-alert" role="alert">
          {t('reportAccess.statusFailed')}
        </p>
      ) : held ? (
        <>
          <TeamAccess companyId={companyId} />
          <RecoveryKitAction companyName={companyName} />
          <CompanyKeyRotationAction companyName={companyName} status={status.data!} onChanged={status.reload} />
        </>
      ) : (
        <p>{t('reportAccess.notHeld')}</p>
      )}
    </section>
  );
}

function TeamAccess({ companyId }: { companyId: string }) {
  const { t } = useTranslation('settings');
  const session = useStaffSession();
  const team = useLoad(() => getTeamKeys(session.api), [session]);
  // The admin's own row: its key id names the endorser; nobody confirms their own key.
  const ownSigningKey = session.keyring.person()?.signingPublicKey;
  const own = team.data?.people.find((person) => person.signing_public_key === ownSigningKey);
  const endorsable = (person: TeamKey) => Boolean(own?.key_id && person.key_id && person !== own);
  const failure = useKeysFailure();
  const [grant, setGrant] = useState<Grant>();
  const [busy, setBusy] = useState<string>();
  const [done, setDone] = useState<string>();

  async function act(person: TeamKey, work: () => Promise<unknown>, success: string) {
    setDone(undefined);
    setBusy(person.user_id);
    const ok = await failure.run(work);
    setBusy(undefined);
    if (ok) setDone(success);
    // What changed (or what the refusal says changed, e.g. a new key) shows on the list either way.
    await team.reload();
  }

  /** Signs, with the admin's key, that the compared key is the case team's (the reporters' pages check it). */
  const endorse = (person: TeamKey, recipient: KeyRecipient) =>
    session.keyring.endorseTeamKey({
      companyId,
      endorserKeyId: own!.key_id!,
      member: { ...recipient, keyId: person.key_id!, role: teamRole(person.roles) },
    });

  function approve({ person, fingerprint, requestId, purpose }: Grant) {
    setGrant(undefined);
    const { public_key: publicKey, signing_public_key: signingPublicKey } = person;
    if (!publicKey || !signingPublicKey) return;
    const recipient = { userId: person.user_id, publicKey, signingPublicKey, fingerprint };
    if (purpose === 'endorse') {
      void act(person, () => endorse(person, recipient), t('reportAccess.keyConfirmed', { name: person.full_name }));
      return;
    }
    void act(
      person,
      async () => {
        await session.keyring.approveCompanyKey({ ...recipient, ...(requestId ? { requestId } : {}) });
        // Compared once, for both: access, and the reporters' pages trusting their replies.
        if (endorsable(person) && !person.endorsed) await endorse(person, recipient);
      },
      t('reportAccess.granted', { name: person.full_name }),
    );
  }

  if (!team.data) return <Spinner />;
  const people = team.data.people;
  const requests = people.filter((person) => person.access_request);
  return (
    <>
      {done && <p role="status">{done}</p>}
      {failure.message && (
        <p className="wh-alert" role="alert">
          {failure.message}
        </p>
      )}
      <h3>{t('reportAccess.requestsTitle')}</h3>
      {requests.length === 0 && <p className="settings-muted">{t('reportAccess.noRequests')}</p>}
      {requests.map((person) => (
        <AccessRequest
          key={person.user_id}
          person={person}
          busy={busy === person.user_id}
          onApprove={() =>
            setGrant({
              person,
              fingerprint: person.access_request!.fingerprint,
              requestId: person.access_request!.id,
              purpose: 'grant',
            })
          }
          onDecline={() =>
            void act(
              person,
              () => declineCompanyKeyRequest(session.api, person.access_request!.id),
              t('reportAccess.declined', { name: person.full_name }),
            )
          }
        />
      ))}
      <h3>{t('reportAccess.teamTitle')}</h3>
      <p className="settings-muted">{t('reportAccess.confirmIntro')}</p>
      <TeamTable
        people={people}
        busy={busy}
        endorsable={endorsable}
        onGrant={(person, purpose) =>
          person.fingerprint && setGrant({ person, fingerprint: person.fingerprint, purpose })
        }
      />
      <CompareFingerprintDialog
        check={grant && { fullName: grant.person.full_name, fingerprint: grant.fingerprint, purpose: grant.purpose }}
        onConfirm={() => grant && approve(grant)}
        onCancel={() => setGrant(undefined)}
      />
    </>
  );
}

function AccessRequest(props: { person: TeamKey; busy: boolean; onApprove(): void; onDecline(): void }) {
  const { t, i18n } = useTranslation('settings');
  const { person } = props;
  const request = person.access_request!;
  return (
    <article className="settings-key-request" aria-label={person.full_name}>
      <p>
        <strong>{person.full_name}</strong>{' '}
        {t('reportAccess.requestedOn', {
          date: formatDate(request.created, i18n.language),
          expires: formatDate(request.expires_at, i18n.language),
        })}
      </p>
      <p>
        {t('reportAccess.requestFingerprint')}{' '}
        <span className="settings-fingerprint" translate="no">
          {request.fingerprint}
        </span>
      </p>
      <p>{t('reportAccess.compareAdvice', { name: person.full_name })}</p>
      <div className="settings-row-actions">
        <Button
          busy={props.busy}
          onClick={props.onApprove}
          aria-label={t('reportAccess.approveFor', { name: person.full_name })}
        >
          {t('reportAccess.approve')}
        </Button>
        <Button
          variant="secondary"
          disabled={props.busy}
          onClick={props.onDecline}
          aria-label={t('reportAccess.declineFor', { name: person.full_name })}
        >
          {t('reportAccess.decline')}
        </Button>
      </div>
    </article>
  );
}

function TeamTable({
  people,
  busy,
  endorsable,
  onGrant,
}: {
  people: TeamKey[];
  busy?: string;
  endorsable(person: TeamKey): boolean;
  onGrant(person: TeamKey, purpose: Grant['purpose']): void;
}) {
  const { t } = useTranslation('settings');
  const confirmation = (person: TeamKey) =>
    !person.fingerprint ? '—' : person.endorsed ? t('reportAccess.confirmed') : t('reportAccess.unconfirmed');
  const access = (person: TeamKey) =>
    !person.fingerprint
      ? t('reportAccess.noKeys')
      : person.company_key === 'granted'
        ? t('reportAccess.holds')
        : person.access_request
          ? t('reportAccess.asked')
          : t('reportAccess.noAccess');
  return (
    <TableScroll label={t('reportAccess.teamTitle')}>
      <table className="settings-table">
        <caption className="wh-visually-hidden">{t('reportAccess.teamTitle')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('reportAccess.person')}</th>
            <th scope="col">{t('reportAccess.fingerprint')}</th>
            <th scope="col">{t('reportAccess.access')}</th>
            <th scope="col">{t('reportAccess.confirmation')}</th>
            <th scope="col">
              <span className="wh-visually-hidden">{t('reportAccess.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {people.map((person) => (
            <tr key={person.user_id}>
              <td>{person.full_name}</td>
              <td className="settings-fingerprint" translate="no">
                {person.fingerprint ?? '—'}
              </td>
              <td>{access(person)}</td>
              <td>{confirmation(person)}</td>
              <td className="settings-row-actions">
                {person.fingerprint && person.company_key === 'missing' && !person.access_request && (
                  <Button
                    variant="secondary"
                    busy={busy === person.user_id}
                    onClick={() => onGrant(person, 'grant')}
                    aria-label={t('reportAccess.grantTo', { name: person.full_name })}
                  >
                    {t('reportAccess.grant')}
                  </Button>
                )}
                {person.fingerprint && !person.endorsed && endorsable(person) && (
                  <Button
                    variant="secondary"
                    busy={busy === person.user_id}
                    onClick={() => onGrant(person, 'endorse')}
                    aria-label={t('reportAccess.confirmKeyOf', { name: person.full_name })}
                  >
                    {t('reportAccess.confirmKey')}
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
