import * as React from 'react';
import * as ReactDOMClient from 'react-dom/client';
import type { RouteObject } from 'react-router';
import singleSpaReact from 'single-spa-react';
import type { StaffSession } from '@whistle/api-client';
import { ErrorPage } from '@whistle/ui';
import { StaffApp } from './staff-app.component';

/**
 * The single-spa lifecycles a staff remote exposes (`./lifecycles`): its routes in a StaffApp,
 * given the shell's `session` custom prop; 'Unexpected Application Error!' if the root fails.
 */
export function staffLifecycles(routes: RouteObject[]) {
  return singleSpaReact<{ session: StaffSession }>({
    React,
    ReactDOMClient,
    rootComponent: ({ session }) => <StaffApp session={session} routes={routes} />,
    errorBoundary: (error) => <ErrorPage error={error} />,
  });
}
