import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button, useDocumentTitle } from '@whistle/ui';
import { useCompany } from '../company/company.layout';
import { StatusForm } from './status-form.component';

/** /disclose/{urlIdentifier}: what the channel is, how safe it is, and the two ways forward. */
export function LandingPage() {
  const company = useCompany();
  const { t } = useTranslation('disclose');
  const [statusFormOpen, setStatusFormOpen] = useState(false);
  const title = company.title || t('landing.defaultTitle');
  useDocumentTitle(title);
  return (
    <article className="wh-card disclose-landing">
      <h1>{title}</h1>
      {/* Plain text for now (rich text arrives with the company settings): line breaks are kept by CSS. */}
      <p className="disclose-landing__description">{company.description || t('landing.defaultDescription')}</p>
      <section className="disclose-landing__assurances" aria-labelledby="assurances-title">
        <h2 id="assurances-title">{t('landing.assurancesTitle')}</h2>
        <ul>
          <li>{t('landing.encrypted')}</li>
          <li>{t('landing.anonymous')}</li>
        </ul>
      </section>
      <div className="wh-actions">
        <Link className="wh-button wh-button--primary" to="create">
          {t('landing.report')}
        </Link>
        {!statusFormOpen && (
          <Button variant="secondary" onClick={() => setStatusFormOpen(true)}>
            {t('landing.checkStatus')}
          </Button>
        )}
      </div>
      {statusFormOpen && <StatusForm onCancel={() => setStatusFormOpen(false)} />}
    </article>
  );
}
