import * as React from 'react';
import * as ReactDOMClient from 'react-dom/client';
import singleSpaReact from 'single-spa-react';
import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { RemoteUnavailable } from '@whistle/ui';
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

/** Lifecycles standing in for a remote that could not be loaded: a contained, translated message. */
export const unavailableLifecycles = () =>
  singleSpaReact({ React, ReactDOMClient, rootComponent: UnavailablePage });

/**
 * Second layer of failure handling: when a remote still cannot be loaded after the retries, its
 * route shows a message instead of a blank page, and the other applications keep working.
 */
export function fallbackPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'whistle-fallback',
    errorLoadRemote({ id, error, lifecycle }) {
      // Only the final stage: earlier stages expect a manifest or options, not a module.
      if (lifecycle !== 'onLoad') return undefined;
      console.error(`Remote module ${id} could not be loaded`, error);
      return unavailableLifecycles();
    },
  };
}
