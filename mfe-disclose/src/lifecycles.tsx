import * as React from 'react';
import * as ReactDOMClient from 'react-dom/client';
import singleSpaReact from 'single-spa-react';
import { ErrorPage } from '@whistle/ui';
import { DiscloseApp } from './disclose.app';

/** Exposed as `mfe_disclose/lifecycles`, mounted by the shell on /disclose. */
export const { bootstrap, mount, unmount } = singleSpaReact({
  React,
  ReactDOMClient,
  rootComponent: DiscloseApp,
  errorBoundary: (error) => <ErrorPage error={error} />,
});
