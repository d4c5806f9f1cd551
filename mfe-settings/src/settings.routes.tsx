import { useTranslation } from 'react-i18next';
import { Navigate, isRouteErrorResponse, useRouteError, type RouteObject } from 'react-router';
import { ErrorPage, MessagePage, Spinner } from '@whistle/ui';
import { AccountPage } from './account/account.page';
import { MfaSetupDialog } from './account/mfa-setup.dialog';
import { SettingsFrame } from './settings.frame.component';

export function NotFoundPage() {
  const { t } = useTranslation('settings');
  return (
    <SettingsFrame>
      <MessagePage title={t('notFound.title')}>
        <p>{t('notFound.description')}</p>
      </MessagePage>
    </SettingsFrame>
  );
}

function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  return (
    <SettingsFrame>
      <ErrorPage />
    </SettingsFrame>
  );
}

/**
 * /company/settings/*: account (with its MFA set-up dialog). The admin-only pages come in later
 * issues; until then their paths are a translated "page not found" (the shell's guard sends
 * non-admins to account settings first).
 */
export const settingsRoutes: RouteObject[] = [
  {
    path: '/company',
    ErrorBoundary: RouteError,
    HydrateFallback: Spinner,
    children: [
      { path: 'settings', element: <Navigate to="/company/settings/account" replace /> },
      { path: 'settings/account', Component: AccountPage, children: [{ path: 'mfa', Component: MfaSetupDialog }] },
      { path: '*', Component: NotFoundPage },
    ],
  },
];
