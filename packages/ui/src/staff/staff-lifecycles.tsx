import i18n from 'i18next';
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
 *
 * Mounted once the remote's translations (`namespace`) are there: a page that suspends on them shows a spinner,
 * and React then holds the page back until 300 ms after that spinner appeared (its fallback throttle), which
 * was a third of a sign-in (docs/performance.md). A failed load is i18next's to report; the page mounts anyway.
 */
export function staffLifecycles(routes: RouteObject[], namespace: string) {
  const lifecycles = singleSpaReact<{ session: StaffSession }>({
    React,
    ReactDOMClient,
    rootComponent: ({ session }) => <StaffApp session={session} routes={routes} />,
    errorBoundary: (error) => <ErrorPage error={error} />,
  });
  const mount: typeof lifecycles.mount = async (props) => {
    await i18n.loadNamespaces(['common', namespace]).catch(() => undefined);
    return lifecycles.mount(props);
  };
  return { bootstrap: lifecycles.bootstrap, mount, unmount: lifecycles.unmount };
}
