import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError, type RouteObject } from 'react-router';
import { ErrorPage, MessagePage, Spinner } from '@whistle/ui';
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
  return <SettingsFrame><ErrorPage /></SettingsFrame>;
}

/**
 * /company/settings/*. Its pages come in later issues;
 * until then every path of the area is a translated "page not found".
 */
export const settingsRoutes: RouteObject[] = [
  {
    path: '/company',
    ErrorBoundary: RouteError,
    HydrateFallback: Spinner,
    children: [{ path: '*', Component: NotFoundPage }],
  },
];
