import * as React from 'react';
import * as ReactDOMClient from 'react-dom/client';
import singleSpaReact from 'single-spa-react';
import { ErrorPage } from '@whistle/ui';
import { PublicPagesApp } from './public-pages.app';

export const { bootstrap, mount, unmount } = singleSpaReact({
  React,
  ReactDOMClient,
  rootComponent: PublicPagesApp,
  errorBoundary: (error) => <ErrorPage error={error} />,
});
