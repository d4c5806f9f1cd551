import { Outlet, isRouteErrorResponse, useRouteError, type RouteObject } from 'react-router';
import { ErrorPage, Spinner } from '@whistle/ui';
import { ShellFrame } from '../shell-frame.component';
import { NotFoundPage } from './not-found.page';
import { OnboardingPage } from './onboarding/onboarding.page';
import { SuccessPage } from './success/success.page';

function PublicLayout() {
  return (
    <ShellFrame>
      <Outlet />
    </ShellFrame>
  );
}

function RouteError() {
  const error = useRouteError();
  const page = isRouteErrorResponse(error) && error.status === 404 ? <NotFoundPage /> : <ErrorPage />;
  return <ShellFrame>{page}</ShellFrame>;
}

/** Login and password pages join these routes in a later issue. */
export const publicRoutes: RouteObject[] = [
  {
    path: '/',
    Component: PublicLayout,
    ErrorBoundary: RouteError,
    HydrateFallback: Spinner,
    children: [
      { path: 'company/onboarding', Component: OnboardingPage },
      { path: 'company/:urlIdentifier/success', Component: SuccessPage },
      { path: '*', Component: NotFoundPage },
    ],
  },
];
