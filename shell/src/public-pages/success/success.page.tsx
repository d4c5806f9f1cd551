import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { companyQrCodeUrl } from '@whistle/api-client';
import { Button, TextField, useDocumentTitle } from '@whistle/ui';
import { api } from '../../api';
import './success.css';

type CopyState = 'idle' | 'copied' | 'failed';

/** /company/{urlIdentifier}/success: the account exists; hand out the employees' link. */
export function SuccessPage() {
  const { t } = useTranslation('shell');
  const urlIdentifier = useParams().urlIdentifier ?? '';
  const link = `${window.location.origin}/disclose/${encodeURIComponent(urlIdentifier)}`;
  const [copy, setCopy] = useState<CopyState>('idle');
  useDocumentTitle(t('success.title'));

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
      <p>{t('success.qrIntro')}</p>
      <img
        className="shell-success__qr"
        src={companyQrCodeUrl(api, urlIdentifier)}
        alt={t('success.qrAlt', { link })}
        width={200}
        height={200}
      />
      <p>
        <Link className="wh-button wh-button--primary" to="/company/login">
          {t('success.login')}
        </Link>
      </p>
    </section>
  );
}
