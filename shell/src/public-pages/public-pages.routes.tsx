import { Outlet, isRouteErrorResponse, useRouteError, type RouteObject } from 'react-router';
import { ErrorPage, Spinner, useErrorReport } from '@whistle/ui';
import { ShellFrame } from '../shell-frame.component';
import { LoginPage } from './login/login.page';
import { MfaPage } from './login/mfa.page';
import { SsoPage } from './login/sso.page';
import { NotFoundPage } from './not-found.page';
import { ConfirmPage } from './onboarding/confirm.page';
import { OnboardingPage } from './onboarding/onboarding.page';
import { PasswordChangePage } from './password/password-change.page';
import { PasswordResetPage } from './password/password-reset.page';
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
  useErrorReport(error);
  const page = isRouteErrorResponse(error) && error.status === 404 ? <NotFoundPage /> : <ErrorPage />;
  return <ShellFrame>{page}</ShellFrame>;
}

/** Company public pages (spec §2): sign-in, password, onboarding. */
export const publicRoutes: RouteObject[] = [
  {
    path: '/',
    Component: PublicLayout,
    ErrorBoundary: RouteError,
    HydrateFallback: Spinner,
    children: [
      { index: true, Component: LoginPage },
      { path: 'company/login', Component: LoginPage },
      { path: 'company/login/mfa', Component: MfaPage },
      { path: 'company/login/sso', Component: SsoPage },
      { path: 'company/password/reset', Component: PasswordResetPage },
      { path: 'company/password/change', Component: PasswordChangePage },
      { path: 'company/onboarding', Component: OnboardingPage },
      { path: 'company/onboarding/confirm', Component: ConfirmPage },
      { path: 'company/:urlIdentifier/success', Component: SuccessPage },
      { path: '*', Component: NotFoundPage },
    ],
  },
];
