export { startTracing, noTracing, type Tracing } from './start-tracing';
export { tracesRequested } from './tracing-config';
export { traceContextOf, contextFromTraceContext, type TraceContext } from './trace-context';
export { inPublishSpan, inConsumeSpan, type MessagingSpanEvent } from './messaging-spans';
export { RedactingSpanProcessor, isAllowedAttribute } from './redacting-span-processor';
