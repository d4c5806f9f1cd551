import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import './settings.css';

/**
 * Settings area below the shell's company header: the sidebar and the page. Only pages that exist
 * are linked (Account, for everyone); the admin-only pages of spec §2 join the sidebar with their pages.
 */
export function SettingsFrame({ children }: { children: ReactNode }) {
  const { t } = useTranslation('settings');
  return (
    <main className="wh-main mfe-settings">
      <nav aria-label={t('sidebar.label')} className="mfe-settings__sidebar">
        <ul>
          <li>
            <NavLink to="/company/settings/account">{t('sidebar.account')}</NavLink>
          </li>
        </ul>
      </nav>
      <div className="mfe-settings__page">{children}</div>
    </main>
  );
}
