import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UNTRACED_PATHS } from './untraced-paths';

const pathOf = (url: string | undefined) => (url ?? '/').split('?', 1)[0];

let registered = false;

/**
 * Patches http, express and pg as they are loaded, so their spans go to the tracer provider `startTracing`
 * registers later (the instrumentations use the API's global proxy). Once per process.
 *
 * What they may record is narrowed here and again by `RedactingSpanProcessor`: pg never records the values
 * of a statement (`enhancedDatabaseReporting` off) and is traced only inside a request or an event, not for
 * the relay's polling; outgoing calls (object store) only inside one too.
 */
export function instrumentLibraries(): void {
  if (registered) return;
  registered = true;
  registerInstrumentations({
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.has(pathOf(request.url)),
        requireParentforOutgoingSpans: true,
      }),
      // The route's handler only: a span per middleware and router (a dozen per request) says little the
      // request span does not, and costs on every request.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE, ExpressLayerType.ROUTER] }),
      new PgInstrumentation({
        enhancedDatabaseReporting: false,
        requireParentSpan: true,
        ignoreConnectSpans: true,
      }),
    ],
  });
}
