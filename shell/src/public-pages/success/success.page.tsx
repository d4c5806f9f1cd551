import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router';
import { ApiError, companyQrCodeUrl, getCompanyPublicView } from '@whistle/api-client';
import { Button, TextField, useDocumentTitle, useLoad } from '@whistle/ui';
import { api } from '../../api';
import './success.css';

type CopyState = 'idle' | 'copied' | 'failed';

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
  useDocumentTitle(t('success.title'));
  // Whether disclosers can open the company yet: only once its admin confirmed the e-mailed link (404 before).
  const company = useLoad((signal) => getCompanyPublicView(api, urlIdentifier, signal), [urlIdentifier], {
    shows: (error) => error instanceof ApiError && error.status === 404,
  });
  const activity = company.data ? 'active' : company.error ? 'awaiting-confirmation' : 'checking';

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
