import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router';
import { ApiError, companyQrCodeUrl, getCompanyPublicView } from '@whistle/api-client';
import { Button, TextField, useDocumentTitle } from '@whistle/ui';
import { api } from '../../api';
import './success.css';

type CopyState = 'idle' | 'copied' | 'failed';
/** Whether disclosers can open the company yet: only once its admin confirmed the e-mailed link. */
type Activity = 'checking' | 'active' | 'awaiting-confirmation';

/**
 * /company/{urlIdentifier}/success: the account is created; hand out the employees' link. Right after onboarding it
 * waits for the admin to confirm their address (the link and sign-in work from then on), and says so.
 */
export function SuccessPage() {
  const { t } = useTranslation('shell');
  const urlIdentifier = useParams().urlIdentifier ?? '';
  const confirmed = (useLocation().state as { confirmed?: boolean } | null)?.confirmed === true;
  const link = `${window.location.origin}/disclose/${encodeURIComponent(urlIdentifier)}`;
  const [copy, setCopy] = useState<CopyState>('idle');
  const [activity, setActivity] = useState<Activity>('checking');
  const [failure, setFailure] = useState<{ error: unknown }>();
  useDocumentTitle(t('success.title'));

  useEffect(() => {
    const controller = new AbortController();
    getCompanyPublicView(api, urlIdentifier, controller.signal).then(
      () => setActivity('active'),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && error.status === 404) setActivity('awaiting-confirmation');
        else setFailure({ error });
      },
    );
    return () => controller.abort();
  }, [urlIdentifier]);
  if (failure) throw failure.error;

  async function copyLink() {
    try {
      await navigator.clipboard.writeText(link);
      setCopy('copied');
    } catch {
      // Clipboard access refused (permissions, insecure context): the field stays selectable.
      setCopy('failed');
    }
  }

  return (
    <section className="wh-card wh-stack" aria-labelledby="success-title">
      <h1 id="success-title">{t('success.title')}</h1>
      {activity === 'awaiting-confirmation' && (
        <p className="wh-alert" role="status">
          {t('success.awaitingConfirmation')}
        </p>
      )}
      {activity === 'active' && confirmed && <p role="status">{t('success.confirmed')}</p>}
      <p>{t('success.linkIntro')}</p>
      <TextField
        name="disclosure_link"
        label={t('success.linkLabel')}
        value={link}
        readOnly
        onFocus={(event) => event.currentTarget.select()}
      />
      <div className="wh-actions">
        <Button variant="secondary" onClick={() => void copyLink()}>
          {t('success.copy')}
        </Button>
        <p role="status" aria-live="polite">
          {copy === 'copied' && t('success.copied')}
          {copy === 'failed' && t('success.copyFailed')}
        </p>
      </div>
      {activity === 'active' && (
        <>
          <p>{t('success.qrIntro')}</p>
          <img
            className="shell-success__qr"
            src={companyQrCodeUrl(api, urlIdentifier)}
            alt={t('success.qrAlt', { link })}
            width={200}
            height={200}
          />
        </>
      )}
      <p>
        <Link className="wh-button wh-button--primary" to="/company/login">
          {t('success.login')}
        </Link>
      </p>
    </section>
  );
}
