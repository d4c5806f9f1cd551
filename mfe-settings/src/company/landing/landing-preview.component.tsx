import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import defaultLogo from '../../assets/default-logo.svg';
import { sanitizeDescription, trustedDescription } from './sanitize-description';

export interface LandingPreviewProps {
  companyName: string;
  title: string;
  /** The editor's HTML, sanitised here with the server's rules before it is shown. */
  description: string;
  logoUrl: string | null;
}

/**
 * The top of the discloser's landing page as it will look: header logo (or the default), title and
 * description, each falling back to the discloser page's defaults when left empty.
 */
export function LandingPreview({ companyName, title, description, logoUrl }: LandingPreviewProps) {
  const { t } = useTranslation('settings');
  const clean = useMemo(() => sanitizeDescription(description), [description]);
  return (
    <section className="wh-card settings-landing-preview" aria-labelledby="landing-preview-heading">
      <h2 id="landing-preview-heading">{t('customization.preview')}</h2>
      <div className="settings-landing-preview__page" data-testid="landing-preview">
        <div className="settings-landing-preview__header">
          {logoUrl ? (
            <img src={logoUrl} alt={t('customization.logoAlt', { name: companyName })} />
          ) : (
            <img src={defaultLogo} alt={t('customization.defaultLogoAlt')} width={132} height={32} />
          )}
        </div>
        <p className="settings-landing-preview__title" role="heading" aria-level={3}>
          {title.trim() || t('customization.defaultTitle')}
        </p>
        {clean ? (
          // Sanitised with the same allow-list the server stores with, through the page's Trusted Types policy.
          <div
            className="settings-landing-preview__description"
            dangerouslySetInnerHTML={{ __html: trustedDescription(clean) }}
          />
        ) : (
          <p className="settings-landing-preview__description">{t('customization.defaultDescription')}</p>
        )}
      </div>
    </section>
  );
}
