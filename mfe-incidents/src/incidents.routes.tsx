import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError, type RouteObject } from 'react-router';
import { ErrorPage, MessagePage, Spinner } from '@whistle/ui';
import { IncidentListPage } from './incident-list/incident-list.page';
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
  return (
    <IncidentsFrame>
      <ErrorPage />
    </IncidentsFrame>
  );
}

/**
 * /company/incidents, /company/team and /company/reporting. The list page says where reports will
 * appear; the other pages come in later issues, until then a translated "page not found".
 */
export const incidentsRoutes: RouteObject[] = [
  {
    path: '/company',
    ErrorBoundary: RouteError,
    HydrateFallback: Spinner,
    children: [
      { path: 'incidents', Component: IncidentListPage },
      { path: '*', Component: NotFoundPage },
    ],
  },
];
