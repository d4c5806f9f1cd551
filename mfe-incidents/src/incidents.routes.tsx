import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError, type RouteObject } from 'react-router';
import { ErrorPage, MessagePage, Spinner } from '@whistle/ui';
import { IncidentsFrame } from './incidents.frame.component';

export function NotFoundPage() {
  const { t } = useTranslation('incidents');
  return (
    <IncidentsFrame>
      <MessagePage title={t('notFound.title')}>
        <p>{t('notFound.description')}</p>
      </MessagePage>
    </IncidentsFrame>
  );
}

function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  return <IncidentsFrame><ErrorPage /></IncidentsFrame>;
}

/**
 * /company/incidents, /company/team and /company/reporting. Their pages come in later issues;
 * until then every path of the area is a translated "page not found".
 */
export const incidentsRoutes: RouteObject[] = [
  {
    path: '/company',
    ErrorBoundary: RouteError,
    HydrateFallback: Spinner,
    children: [{ path: '*', Component: NotFoundPage }],
  },
];
