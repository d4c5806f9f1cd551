import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CompanyPublicView } from '@whistle/contracts';
import { AppFrame, DISCLOSER_LANGUAGES, LanguageChooser } from '@whistle/ui';
import defaultLogo from '../assets/default-logo.svg';
import { useCompanyLanguage } from './company-language';

export interface DiscloserFrameProps {
  company?: Pick<CompanyPublicView, 'name' | 'customization' | 'languages'>;
  children: ReactNode;
}

/**
 * Discloser header (spec §2): the company logo, or the default one followed by the company's name (the discloser
 * must see whose channel this is), and the language chooser with the languages the company offers.
 */
export function DiscloserFrame({ company, children }: DiscloserFrameProps) {
  const { t } = useTranslation('disclose');
  useCompanyLanguage(company?.languages);
  const logoUrl = company?.customization.logo_url;
  // Same origin as the page (img-src 'self'); an SVG shown through <img> runs no script and loads nothing.
  const logo = logoUrl ? (
    <img className="disclose-logo" src={logoUrl} alt={t('header.logoAlt', { name: company.name })} />
  ) : (
    <span className="disclose-brand">
      <img src={defaultLogo} alt={t('header.defaultLogoAlt')} width={132} height={32} />
      {company && <span className="disclose-company-name">{company.name}</span>}
    </span>
  );
  return (
    <AppFrame brand={logo} tools={<LanguageChooser languages={company?.languages.offered ?? DISCLOSER_LANGUAGES} />}>
      {children}
    </AppFrame>
  );
}
