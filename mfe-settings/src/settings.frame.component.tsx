import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { StaffFrame } from '@whistle/ui/staff';

/**
 * Settings area below the shell's company header: the sidebar and the page. Only pages that exist
 * are linked (Account, for everyone); the admin-only pages of spec §2 join the sidebar with their pages.
 */
export function SettingsFrame({ children }: { children: ReactNode }) {
  const { t } = useTranslation('settings');
  return (
    <StaffFrame
      sidebar={{ label: t('sidebar.label'), links: [{ to: '/company/settings/account', label: t('sidebar.account') }] }}
    >
      {children}
    </StaffFrame>
  );
}
