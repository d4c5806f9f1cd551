import * as React from 'react';
import * as ReactDOMClient from 'react-dom/client';
import singleSpaReact from 'single-spa-react';
import { ErrorPage } from '@whistle/ui';
import { SettingsApp } from './settings.app';

/** Exposed as `mfe_settings/lifecycles`, mounted by the shell on its routes. */
export const { bootstrap, mount, unmount } = singleSpaReact({
  React,
  ReactDOMClient,
  rootComponent: SettingsApp,
  errorBoundary: () => <ErrorPage />,
});
