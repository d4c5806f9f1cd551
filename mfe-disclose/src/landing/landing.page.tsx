import { useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { landingText, type CompanyPublicView } from '@whistle/contracts';
import { Button, useDocumentTitle } from '@whistle/ui';
import { KeyFingerprint } from './key-fingerprint.component';
import { StatusForm, type StatusFormFailure } from './status-form.component';
import { WhatHappensNext } from './what-happens-next.component';

/** The pages the landing page leads to. */
export const landingLinks = (urlIdentifier: string) => {
  const base = `/disclose/${encodeURIComponent(urlIdentifier)}`;
  return { create: `${base}/create`, review: `${base}/review` };
};

export interface LandingPageProps {
  company: CompanyPublicView;
  /** Opens the create page (in the page: the link keeps its href for a new tab). */
  onReport(): void;
  /** Posts the secret code to the review page. */
  onCheckStatus(code: string): void;
  /** The discloser is about to leave the landing page (pointer or focus on a way out). */
  onIntent?(): void;
  /** A code being checked, or the last one that did not open a report: the status form shows open with it. */
  statusCheck?: StatusFormFailure | { code: string; checking: true };
  /** The status form was closed: the code it held is forgotten. */
  onStatusCancel?(): void;
}

/** A click the browser should handle itself: another button, or a modifier asking for a new tab or window. */
const opensElsewhere = (event: MouseEvent) =>
  event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey;

/**
 * /disclose/{urlIdentifier}: what the channel is, how safe it is, and the two ways forward. It needs no
 * router: the first visit shows it before React Router is downloaded (see disclose.app.tsx).
 */
export function LandingPage({
  company,
  onReport,
  onCheckStatus,
  onIntent,
  statusCheck,
  onStatusCancel,
}: LandingPageProps) {
  const { t, i18n } = useTranslation('disclose');
  const [statusFormOpened, setStatusFormOpen] = useState(false);
  const statusFormOpen = statusFormOpened || statusCheck !== undefined;
  const customization = landingText(company.customization, i18n.language);
  const title = customization.title || t('landing.defaultTitle');
  const links = landingLinks(company.url_identifier);
  const intent = onIntent ? { onPointerEnter: onIntent, onFocus: onIntent, onTouchStart: onIntent } : {};
  useDocumentTitle(title);
  return (
    <article className="wh-card disclose-landing">
      <h1>{title}</h1>
      {customization.description ? (
        // The server stored this HTML only after sanitising it (DOMPurify, rich-text allow-list in
        // @whistle/contracts): no second sanitiser ships to disclosers, whose page has a strict JavaScript
        // budget. The page's CSP (script-src 'self', no inline script) blocks scripts even if one got through.
        <div
          className="disclose-landing__description disclose-landing__description--rich"
          dangerouslySetInnerHTML={{ __html: customization.description }}
        />
      ) : (
        <p className="disclose-landing__description">{t('landing.defaultDescription')}</p>
      )}
      <section className="disclose-landing__assurances" aria-labelledby="assurances-title">
        <h2 id="assurances-title">{t('landing.assurancesTitle')}</h2>
        <ul>
          <li>{t('landing.encrypted')}</li>
          <li>{t('landing.anonymous')}</li>
        </ul>
      </section>
      <WhatHappensNext />
      <div className="wh-actions">
        <a
          className="wh-button wh-button--primary"
          href={links.create}
          {...intent}
          onClick={(event) => {
            if (opensElsewhere(event)) return;
            event.preventDefault();
            onReport();
          }}
        >
          {t('landing.report')}
        </a>
        {!statusFormOpen && (
          <Button variant="secondary" onClick={() => setStatusFormOpen(true)} {...intent}>
            {t('landing.checkStatus')}
          </Button>
        )}
      </div>
      <KeyFingerprint publicKey={company.public_key} companyName={company.name} />
      {statusFormOpen && (
        <StatusForm
          action={links.review}
          onSubmitCode={onCheckStatus}
          onCancel={() => {
            setStatusFormOpen(false);
            onStatusCancel?.();
          }}
          code={statusCheck?.code}
          checking={statusCheck !== undefined && 'checking' in statusCheck}
          failure={statusCheck && 'failure' in statusCheck ? statusCheck.failure : undefined}
        />
      )}
    </article>
  );
}
