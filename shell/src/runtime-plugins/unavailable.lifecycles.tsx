import * as React from 'react';
import * as ReactDOMClient from 'react-dom/client';
import singleSpaReact from 'single-spa-react';
import { ErrorPage, RemoteUnavailable } from '@whistle/ui';
import { ShellFrame } from '../shell-frame.component';

function UnavailablePage() {
  return (
    <React.Suspense fallback={null}>
      <ShellFrame>
        <RemoteUnavailable />
      </ShellFrame>
    </React.Suspense>
  );
}

/** Lifecycles standing in for a remote that could not be loaded. */
export const unavailableLifecycles = () =>
  singleSpaReact({
    React,
    ReactDOMClient,
    rootComponent: UnavailablePage,
    errorBoundary: (error) => <ErrorPage error={error} />,
  });
