import type { ComponentType, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, isRouteErrorResponse, useRouteError, type RouteObject } from 'react-router';
import { ErrorPage, MessagePage, Spinner, useErrorReport } from '@whistle/ui';
import { StaffFrame } from './staff-frame.component';

type Frame = ComponentType<{ children: ReactNode }>;

export interface StaffRoutesOptions {
  /** The remote's translation namespace; it holds `notFound.title` and `notFound.description`. */
  namespace: string;
  /** Layout around every page of the remote (a sidebar, say); a plain StaffFrame by default. */
  Frame?: Frame;
  /** The remote's pages, their paths relative to /company. */
  pages: RouteObject[];
}

/** "Page not found" in the remote's words: a path of its area without a page (yet). */
export function StaffNotFound({ namespace }: { namespace: string }) {
  const { t } = useTranslation(namespace);
  return (
    <MessagePage title={t('notFound.title')}>
      <p>{t('notFound.description')}</p>
    </MessagePage>
  );
}

function StaffRouteError({ namespace, Frame }: { namespace: string; Frame: Frame }) {
  const error = useRouteError();
  useErrorReport(error);
  return (
    <Frame>
      {isRouteErrorResponse(error) && error.status === 404 ? <StaffNotFound namespace={namespace} /> : <ErrorPage />}
    </Frame>
  );
}

/**
 * The route tree of a staff remote: its pages under /company inside its frame, a translated "page
 * not found" on any other path of its area, and 'Unexpected Application Error!' (still inside the
 * frame) when a page fails.
 */
export function staffRoutes({ namespace, Frame = StaffFrame, pages }: StaffRoutesOptions): RouteObject[] {
  return [
    {
      path: '/company',
      errorElement: <StaffRouteError namespace={namespace} Frame={Frame} />,
      HydrateFallback: Spinner,
      children: [
        {
          element: (
            <Frame>
              <Outlet />
            </Frame>
          ),
          children: [...pages, { path: '*', element: <StaffNotFound namespace={namespace} /> }],
        },
      ],
    },
  ];
}
