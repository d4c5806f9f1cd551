import { Navigate } from 'react-router';
import { staffRoutes } from '@whistle/ui/staff';
import { AccountPage } from './account/account.page';
import { MfaSetupDialog } from './account/mfa-setup.dialog';
import { SettingsFrame } from './settings.frame.component';

/**
 * /company/settings/*: account (with its MFA set-up dialog). The admin-only pages come in later
 * issues; until then their paths are a translated "page not found" (the shell's guard sends
 * non-admins to account settings first).
 */
export const settingsRoutes = staffRoutes({
  namespace: 'settings',
  Frame: SettingsFrame,
  pages: [
    { path: 'settings', element: <Navigate to="/company/settings/account" replace /> },
    { path: 'settings/account', Component: AccountPage, children: [{ path: 'mfa', Component: MfaSetupDialog }] },
  ],
});
