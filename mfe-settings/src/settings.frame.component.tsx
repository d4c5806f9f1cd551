import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { StaffFrame, useStaffState } from '@whistle/ui/staff';
import './settings.css';

/** Sign-in security for admins: in the sidebar after ADMIN_PAGES (issue 9 item 6). */
const SECURITY_PAGES = ['sso', 'security'] as const;

/**
 * Spec §2: the sidebar's admin-only pages, in its order; then the reply templates (issue 23), data retention and the
 * audit log (issue 10).
 */
const ADMIN_PAGES = [
  'categories',
  'locations',
  'company',
  'deadline',
  'notifications',
  'reply-templates',
  'retention',
  'audit-log',
] as const;

/**
 * Settings area below the shell's company header: the sidebar and the page. Account for everyone; the
 * admin-only pages of spec §2 for admins (the shell's guard sends others to account settings).
 */
export function SettingsFrame({ children }: { children: ReactNode }) {
  const { t } = useTranslation('settings');
  // The audit log is a wide table: the window's width, not the settings column (issue 23 item 7).
  const wide = useLocation().pathname.startsWith('/company/settings/audit-log');
  const isAdmin = useStaffState()?.profile.roles.includes('ADMIN') ?? false;
  const links = [
    { to: '/company/settings/account', label: t('sidebar.account') },
    ...(isAdmin ? ADMIN_PAGES.map((page) => ({ to: `/company/settings/${page}`, label: t(`sidebar.${page}`) })) : []),
    ...(isAdmin
      ? SECURITY_PAGES.map((page) => ({ to: `/company/settings/${page}`, label: t(`sidebar.${page}`) }))
      : []),
  ];
  return (
    <StaffFrame wide={wide} sidebar={{ label: t('sidebar.label'), links }}>
      {children}
    </StaffFrame>
  );
}
