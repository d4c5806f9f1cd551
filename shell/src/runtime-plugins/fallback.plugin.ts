import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';

/**
 * Second layer of failure handling: when a remote still cannot be loaded after the retries, its
 * routes show a contained, translated message instead of a blank page, and the other applications
 * keep working. The fallback is only downloaded when needed.
 */
export function fallbackPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'whistle-fallback',
    async errorLoadRemote({ id, error, lifecycle }) {
      // Only the final stage: earlier stages expect a manifest or options, not a module.
      if (lifecycle !== 'onLoad') return undefined;
      console.error(`Remote module ${id} could not be loaded`, error);
      const { unavailableLifecycles } = await import('./unavailable.lifecycles');
      return unavailableLifecycles();
    },
  };
}
