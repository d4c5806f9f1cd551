/**
 * Import this module first in a service's `main` (before anything loads http, express or pg): when the OTEL_*
 * variables ask for traces, it patches those modules as they load; otherwise it loads nothing else.
 * `runService` then starts the SDK with the service's name.
 */
import { tracesRequested } from './tracing-config';

if (tracesRequested(process.env)) {
  // Loaded only when tracing is on, and synchronously: the modules it patches load right after this one.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('./instrumentations') as typeof import('./instrumentations')).instrumentLibraries();
}
