import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getTeamKeys, type CompanyKeyStatus, type KeyRecipient } from '@whistle/api-client';
import { Button, ConfirmDialog } from '@whistle/ui';
import { RecoveryKitSheet, useStaffSession, type RecoveryKitView } from '@whistle/ui/staff';
import { useKeysFailure } from '../keys-failure';
import type { RewrapKeys, RewrapOutcome, RewrapProgress } from './company-key-rewrap';
import { startRewrapWorker } from './company-key-rewrap-worker';
import type { RewrapMessage, RewrapRequest } from './company-key-rewrap.worker';

/** How often, and how many times, to look whether auth has deleted the old key after the cases were re-wrapped. */
const FINISH_POLL_MS = 1000;
const FINISH_POLLS = 30;

type Phase =
  | { kind: 'idle' }
  | { kind: 'asking'; holders: (KeyRecipient & { fullName: string })[] }
  | { kind: 'kit'; kit: RecoveryKitView }
  | { kind: 'running'; progress: RewrapProgress | undefined }
  | { kind: 'finishing' }
  | { kind: 'done' }
  | { kind: 'blocked'; outcome: Extract<RewrapOutcome, { kind: 'blocked' }> };

/**
 * "Rotate company key" (docs/security.md, "Rotation"): a new company key pair made in this browser, granted to
 * everyone who holds the current one (fingerprints shown), sealed for a new recovery kit (shown once); then every
 * case re-wrapped in this browser (a Web Worker), with progress, after which the old key is deleted. A rotation under way (this page closed,
 * the connection lost) is resumed from here by any admin who held the old key.
 */
export function CompanyKeyRotationAction({
  companyName,
  status,
  onChanged,
}: {
  companyName: string;
  status: CompanyKeyStatus;
  onChanged: () => Promise<unknown>;
}) {
  const { t } = useTranslation('settings');
  const session = useStaffSession();
  const failure = useKeysFailure();
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [busy, setBusy] = useState(false);
  const worker = useRef<Worker>(undefined);
  const unmounted = useRef(false);
  useEffect(
    () => () => {
      unmounted.current = true;
      worker.current?.terminate();
    },
    [],
  );

  /** The session's token: the worker calls the API itself (the client's only Bearer mechanism). */
  const tokenOf = () => /^Bearer (.+)$/.exec(session.api.headers().Authorization ?? '')?.[1] ?? '';

  /**
   * Runs the re-wrapping in a Web Worker, so the page's main thread only shows the progress; answers its outcome.
   * The session's token follows it: sent again with every progress message it answers.
   */
  function runInWorker(keys: RewrapKeys): Promise<RewrapOutcome> {
    worker.current?.terminate();
    const running = startRewrapWorker();
    worker.current = running;
    const send = (request: RewrapRequest) => running.postMessage(request);
    return new Promise<RewrapOutcome>((resolve, reject) => {
      running.onmessage = ({ data }: MessageEvent<RewrapMessage>) => {
        if (data.type === 'progress') {
          setPhase({ kind: 'running', progress: { done: data.done, total: data.total } });
          send({ type: 'token', token: tokenOf() });
          return;
        }
        running.terminate();
        if (data.type === 'done') resolve(data.outcome);
        else reject(new Error(data.message));
      };
      running.onerror = () => {
        running.terminate();
        reject(new Error(t('rotation.workerFailed')));
      };
      send({ type: 'start', baseUrl: `${window.location.origin}${session.api.baseUrl}`, token: tokenOf(), keys });
    });
  }

  async function ask() {
    setBusy(true);
    await failure.run(async () => {
      const team = await getTeamKeys(session.api);
      const holders = team.people.flatMap((person) =>
        person.company_key === 'granted' && person.public_key && person.signing_public_key && person.fingerprint
          ? [
              {
                userId: person.user_id,
                fullName: person.full_name,
                publicKey: person.public_key,
                signingPublicKey: person.signing_public_key,
                fingerprint: person.fingerprint,
              },
            ]
          : [],
      );
      setPhase({ kind: 'asking', holders });
    });
    setBusy(false);
  }

  async function start(holders: KeyRecipient[]) {
    setPhase({ kind: 'idle' });
    setBusy(true);
    await failure.run(async () => {
      const started = await session.keyring.startCompanyKeyRotation(holders);
      setPhase({ kind: 'kit', kit: started.recoveryKit });
    });
    setBusy(false);
  }

  async function rewrap() {
    setPhase({ kind: 'running', progress: undefined });
    let outcome: RewrapOutcome | undefined;
    const ok = await failure.run(async () => {
      // The keys the keyring opened from this person's own grants, each checked against its public key.
      const current = await session.keyring.companyKeyStatus();
      const material = session.keyring.workerMaterial();
      if (!current.rotation || !material?.previousCompanyPrivateKey) throw new Error(t('rotation.previousMissing'));
      outcome = await runInWorker({
        keyVersion: current.keyVersion,
        publicKey: current.publicKey,
        current: material.companyPrivateKey,
        previous: material.previousCompanyPrivateKey,
      });
    });
    if (unmounted.current) return;
    if (!ok || !outcome) return setPhase({ kind: 'idle' });
    if (outcome.kind === 'blocked') return setPhase({ kind: 'blocked', outcome });
    setPhase({ kind: 'finishing' });
    // Auth deletes the old key on the incident service's word: seconds at most.
    for (let poll = 0; poll < FINISH_POLLS && !unmounted.current; poll += 1) {
      if (!(await session.keyring.companyKeyStatus()).rotation) break;
      await new Promise((resolve) => setTimeout(resolve, FINISH_POLL_MS));
    }
    if (unmounted.current) return;
    setPhase({ kind: 'done' });
    await onChanged();
  }

  if (phase.kind === 'kit')
    return (
      <RecoveryKitSheet
        kit={phase.kit}
        companyName={companyName}
        confirmLabel={t('rotation.kitStoredContinue')}
        onConfirmed={() => void rewrap()}
      />
    );

  const rotating = status.rotation !== null || phase.kind === 'running' || phase.kind === 'finishing';
  return (
    <>
      <h3>{t('rotation.title')}</h3>
      {phase.kind === 'running' || phase.kind === 'finishing' ? (
        <RewrapProgressView
          progress={phase.kind === 'running' ? phase.progress : undefined}
          finishing={phase.kind === 'finishing'}
        />
      ) : status.rotation ? (
        <>
          <p role="status">
            {t('rotation.underWay', {
              date: new Intl.DateTimeFormat(undefined, { dateStyle: 'long', timeStyle: 'short' }).format(
                new Date(status.rotation.startedAt),
              ),
            })}
          </p>
          {status.rotation.previousHeld ? (
            <div className="wh-actions">
              <Button onClick={() => void rewrap()}>{t('rotation.resume')}</Button>
            </div>
          ) : (
            <p>{t('rotation.previousMissing')}</p>
          )}
        </>
      ) : (
        <>
          <p>{t('rotation.intro')}</p>
          <div className="wh-actions">
            <Button variant="danger" busy={busy} onClick={() => void ask()}>
              {t('rotation.rotate')}
            </Button>
          </div>
        </>
      )}
      {phase.kind === 'done' && <p role="status">{t('rotation.done')}</p>}
      {phase.kind === 'blocked' && (
        <p className="wh-alert" role="alert">
          {phase.outcome.unopened > 0
            ? t('rotation.unopened', { count: phase.outcome.unopened })
            : t('rotation.blocked', { count: phase.outcome.remaining })}
        </p>
      )}
      {failure.message && (
        <p className="wh-alert" role="alert">
          {failure.message}
        </p>
      )}
      <ConfirmDialog
        open={phase.kind === 'asking' && !rotating}
        title={t('rotation.confirmTitle')}
        confirmLabel={t('rotation.confirm')}
        cancelLabel={t('reportAccess.cancel')}
        danger
        onConfirm={() => phase.kind === 'asking' && void start(phase.holders)}
        onCancel={() => setPhase({ kind: 'idle' })}
      >
        <p>{t('rotation.why')}</p>
        <p>{t('rotation.how')}</p>
        <p>{t('rotation.holders')}</p>
        <ul>
          {phase.kind === 'asking' &&
            phase.holders.map((holder) => (
              <li key={holder.userId}>
                {holder.fullName}{' '}
                <span className="settings-fingerprint" translate="no">
                  {holder.fingerprint}
                </span>
              </li>
            ))}
        </ul>
      </ConfirmDialog>
    </>
  );
}

function RewrapProgressView({ progress, finishing }: { progress: RewrapProgress | undefined; finishing: boolean }) {
  const { t } = useTranslation('settings');
  const label = finishing
    ? t('rotation.finishing')
    : progress
      ? t('rotation.progress', { done: progress.done, total: progress.total })
      : t('rotation.preparing');
  return (
    <>
      <progress
        className="settings-progress"
        max={progress?.total || 1}
        value={progress ? progress.done : undefined}
        aria-label={t('rotation.progressLabel')}
      />
      <p aria-live="polite">{label}</p>
      <p className="settings-muted">{t('rotation.keepOpen')}</p>
    </>
  );
}
