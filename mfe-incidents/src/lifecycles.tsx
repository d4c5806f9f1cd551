import * as React from 'react';
import * as ReactDOMClient from 'react-dom/client';
import singleSpaReact from 'single-spa-react';
import { ErrorPage } from '@whistle/ui';
import { IncidentsApp } from './incidents.app';

/** Exposed as `mfe_incidents/lifecycles`, mounted by the shell on its routes. */
export const { bootstrap, mount, unmount } = singleSpaReact({
  React,
  ReactDOMClient,
  rootComponent: IncidentsApp,
  errorBoundary: () => <ErrorPage />,
});
