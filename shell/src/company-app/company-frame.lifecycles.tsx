import * as React from 'react';
import * as ReactDOMClient from 'react-dom/client';
import singleSpaReact from 'single-spa-react';
import { ErrorPage } from '@whistle/ui';
import { CompanyFrame } from './company-frame.component';

/** The company app's header and route guard, mounted above the remote of the current page. */
export const { bootstrap, mount, unmount } = singleSpaReact({
  React,
  ReactDOMClient,
  rootComponent: CompanyFrame,
  errorBoundary: (error) => <ErrorPage error={error} />,
});
