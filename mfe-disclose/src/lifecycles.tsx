import i18n from 'i18next';
import * as React from 'react';
import * as ReactDOMClient from 'react-dom/client';
import singleSpaReact from 'single-spa-react';
import { ErrorPage } from '@whistle/ui';
import { DiscloseApp, leaveEmptyPage, routedStart } from './disclose.app';

/** Exposed as `mfe_disclose/lifecycles`, mounted by the shell on /disclose. */
const lifecycles = singleSpaReact({
  React,
  ReactDOMClient,
  rootComponent: DiscloseApp,
  errorBoundary: (error) => <ErrorPage error={error} />,
});

export const { bootstrap, unmount } = lifecycles;

/** The shell's container of this application, where the server may have drawn the page's first view. */
const CONTAINER_ID = 'single-spa-application:mfe_disclose';

/**
 * Mounted once the area's translations are there (and, on a drawn routed page, its router and page): React's first
 * render then replaces the page the server drew with the same page, not with a spinner (no flash, no layout shift).
 * A failed load is i18next's to report; the page mounts anyway and shows the keys' fallbacks. A success or review
 * page with nothing to show is the landing page from the start.
 */
export const mount: typeof lifecycles.mount = async (props) => {
  leaveEmptyPage();
  const [start] = await Promise.all([
    routedStart(document.getElementById(CONTAINER_ID)),
    i18n.loadNamespaces(['common', 'disclose']).catch(() => undefined),
  ]);
  return lifecycles.mount({ ...props, start });
};
