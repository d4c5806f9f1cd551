import { isRouteErrorResponse, useRouteError, type RouteObject } from 'react-router';
import type { ApiClient } from '@whistle/api-client';
import { ErrorPage, MessagePage, Spinner, useErrorReport } from '@whistle/ui';
import { useTranslation } from 'react-i18next';
import { CompanyError, CompanyLayout, companyLoader } from './company/company.layout';
import { DiscloserFrame } from './company/discloser-frame.component';
import { LandingRoute } from './landing/landing.route';

function NotFoundPage() {
  const { t } = useTranslation('disclose');
  return (
    <DiscloserFrame>
      <MessagePage title={t('notFound.title')}>
        <p>{t('notFound.description')}</p>
      </MessagePage>
    </DiscloserFrame>
  );
}

function RouteError() {
  const error = useRouteError();
  useErrorReport(error);
  // 405: a form posted to a page of this area that does not exist (yet), like an unknown path.
  if (isRouteErrorResponse(error) && (error.status === 404 || error.status === 405)) return <NotFoundPage />;
  return (
    <DiscloserFrame>
      <ErrorPage />
    </DiscloserFrame>
  );
}

/**
 * Discloser area. The create, success and review pages (and the encryption they need) are lazy
 * chunks: the landing page loads none of it.
 */
export const discloseRoutes = (api: ApiClient): RouteObject[] => [
  {
    path: '/disclose',
    ErrorBoundary: RouteError,
    HydrateFallback: Spinner,
    children: [
      {
        id: 'company',
        path: ':urlIdentifier',
        loader: companyLoader(api),
        Component: CompanyLayout,
        ErrorBoundary: CompanyError,
        children: [
          { index: true, Component: LandingRoute },
          {
            path: 'create',
            lazy: async () => {
              const { CreatePage } = await import(/* webpackChunkName: "create-page" */ './create/create.page');
              return { Component: () => <CreatePage api={api} /> };
            },
          },
          {
            path: 'success',
            lazy: async () => ({
              Component: (await import(/* webpackChunkName: "success-page" */ './success/success.page')).SuccessPage,
            }),
          },
          {
            path: 'review',
            lazy: async () => {
              const { ReviewPage, reviewAction } = await import(
                /* webpackChunkName: "review-page" */ './review/review.page'
              );
              return { Component: ReviewPage, action: reviewAction(api) };
            },
          },
        ],
      },
      { path: '*', Component: NotFoundPage },
    ],
  },
];
