import { randomUUID } from 'node:crypto';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';
import type { EventEnvelope } from '@whistle/contracts';
import { createServiceLifecycle, type ServiceLifecycle } from '../../src/service-lifecycle';
import { createTestDependencies, testStacks, waitFor, type TestDependencies } from '../../src/testing';
import { RedactingSpanProcessor, tracesRequested } from '../../src/tracing';

const exported = new InMemorySpanExporter();
const provider = new TracerProvider({
  spanProcessors: [new RedactingSpanProcessor(), new SimpleSpanProcessor({ exporter: exported })],
});
const contextManager = new AsyncLocalStorageContextManager();

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
  trace.setGlobalTracerProvider(provider);
});
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
});

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const traceOf = (span: ReadableSpan) => span.spanContext().traceId;

const userCreated = (companyId: string) => ({
  name: 'user.created',
  company_id: companyId,
  payload: { user_id: randomUUID(), email: 'canary-h@corp.example', full_name: 'Canary H', roles: ['HANDLER'] },
});

describe.each(testStacks)('traces through the outbox and the bus on %s', (stack) => {
  let test$: TestDependencies;
  let producer: ServiceLifecycle;
  let consumers: ServiceLifecycle[];
  const handled: { consumer: string; event: EventEnvelope; activeTraceId?: string }[] = [];

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['audit', 'notification']);
    producer = createServiceLifecycle({ name: 'producer', schema: 'producer', migrations: [], deps: test$.deps });
    consumers = ['audit', 'notification'].map((name) =>
      createServiceLifecycle({
        name,
        schema: name,
        migrations: [],
        deps: test$.deps,
        subscriptions: [
          {
            events: ['user.created'],
            handle: async (tx, event) => {
              await tx.query('SELECT 1');
              handled.push({ consumer: name, event, activeTraceId: trace.getActiveSpan()?.spanContext().traceId });
            },
          },
        ],
      }),
    );
    for (const lifecycle of [producer, ...consumers]) await lifecycle.start();
  });
  afterAll(async () => {
    for (const lifecycle of [producer, ...(consumers ?? [])]) await lifecycle?.stop();
    await test$?.dispose();
  });

  const spansOf = (traceId: string) => exported.getFinishedSpans().filter((span) => traceOf(span) === traceId);

  it('when a request writes an event, then its publishing and each consumer handling it are spans of the request trace, the publish span the child of the request and the parent of both consumptions', async () => {
    const companyId = randomUUID();
    const tracer = trace.getTracer('test');
    const { requestSpan, added } = await tracer.startActiveSpan(
      'POST /api/incident/',
      { kind: SpanKind.SERVER },
      async (span) => {
        const event = await producer.unitOfWork((tx) => tx.addEvent(userCreated(companyId)));
        span.end();
        return { requestSpan: span, added: event };
      },
    );
    const traceId = requestSpan.spanContext().traceId;

    const stored = await test$.deps.db.query<{ trace_context: { traceparent: string } }>(
      'SELECT trace_context FROM producer.outbox WHERE id = $1',
      [added.id],
    );
    expect(stored.rows[0]?.trace_context.traceparent).toBe(`00-${traceId}-${requestSpan.spanContext().spanId}-01`);

    const [publish, ...processed] = await waitFor(
      () => {
        const spans = spansOf(traceId);
        const publishSpan = spans.find((span) => span.kind === SpanKind.PRODUCER);
        const consumeSpans = spans.filter((span) => span.kind === SpanKind.CONSUMER);
        return publishSpan && consumeSpans.length === 2 ? [publishSpan, ...consumeSpans] : undefined;
      },
      { what: 'the publish span and two consume spans of the trace' },
    );
    expect(publish!.name).toBe('publish user.created');
    expect(parentOf(publish!)).toBe(requestSpan.spanContext().spanId);
    expect(publish!.attributes).toMatchObject({
      'messaging.system': test$.deps.bus.kind,
      'messaging.destination.name': 'user.created',
      'messaging.message.id': added.id,
    });
    expect(processed.map((span) => span.attributes['messaging.consumer.group.name']).sort()).toEqual([
      'audit',
      'notification',
    ]);
    for (const span of processed) {
      expect(span.name).toBe('process user.created');
      expect(parentOf(span)).toBe(publish!.spanContext().spanId);
      expect(span.status.code).not.toBe(SpanStatusCode.ERROR);
    }
    // Each handler ran inside its consume span, so its own queries and calls join the trace.
    expect(handled.filter((each) => each.event.id === added.id).map((each) => each.activeTraceId)).toEqual([
      traceId,
      traceId,
    ]);
    // Ids and names only: nothing of the payload or the company in any span of the trace.
    const attributeText = JSON.stringify(spansOf(traceId).map((span) => [span.name, span.attributes]));
    expect(attributeText).not.toContain('canary');
    expect(attributeText).not.toContain(companyId);
  });

  it('when an event is written outside any trace, then its row keeps no trace context and its publishing starts a trace of its own that the consumers continue', async () => {
    const added = await producer.unitOfWork((tx) => tx.addEvent(userCreated(randomUUID())));
    const stored = await test$.deps.db.query<{ trace_context: unknown }>(
      'SELECT trace_context FROM producer.outbox WHERE id = $1',
      [added.id],
    );
    expect(stored.rows[0]?.trace_context).toBeNull();
    const publish = await waitFor(
      () =>
        exported
          .getFinishedSpans()
          .find((span) => span.kind === SpanKind.PRODUCER && span.attributes['messaging.message.id'] === added.id),
      { what: 'the publish span' },
    );
    expect(publish.parentSpanContext).toBeUndefined();
    const processed = await waitFor(
      () => {
        const spans = spansOf(traceOf(publish)).filter((span) => span.kind === SpanKind.CONSUMER);
        return spans.length === 2 ? spans : undefined;
      },
      { what: 'both consume spans' },
    );
    for (const span of processed) expect(parentOf(span)).toBe(publish.spanContext().spanId);
  });
});

describe('RedactingSpanProcessor', () => {
  it('when a span carries addresses, a query string, headers, values and an error message, then only the allowed attributes, the exception type and a name without query string are exported', () => {
    const span = trace.getTracer('test').startSpan('GET /api/x?code=canary-code', {
      kind: SpanKind.SERVER,
      attributes: {
        'http.request.method': 'GET',
        'http.route': '/api/x',
        'url.path': '/api/x/canary-path-id',
        'url.query': 'code=canary-code',
        'url.full': 'http://h/api/x?code=canary-code',
        'http.target': '/api/x?code=canary-code',
        'client.address': '203.0.113.7',
        'net.peer.ip': '203.0.113.7',
        'user_agent.original': 'canary-agent',
        'http.request.header.authorization': 'Bearer canary-token',
        'db.statement': 'SELECT * FROM t WHERE id = $1',
        'db.query.parameter.0': 'canary-value',
        'enduser.id': 'canary-user',
      },
    });
    span.recordException(new Error('invalid input syntax for type uuid: "canary-value"'));
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'invalid input syntax for type uuid: "canary-value"' });
    span.end();
    const done = exported.getFinishedSpans().find((each) => each.spanContext().spanId === span.spanContext().spanId)!;
    expect(done.name).toBe('GET /api/x');
    expect(done.attributes).toEqual({
      'http.request.method': 'GET',
      'http.route': '/api/x',
      'db.statement': 'SELECT * FROM t WHERE id = $1',
    });
    expect(done.status).toEqual({ code: SpanStatusCode.ERROR });
    expect(done.events.map((event) => [event.name, event.attributes])).toEqual([
      ['exception', { 'exception.type': 'Error' }],
    ]);
    expect(JSON.stringify(done.attributes) + JSON.stringify(done.events)).not.toContain('canary');
  });
});

describe('tracesRequested', () => {
  it.each([
    [{}, false],
    [{ OTEL_SERVICE_NAME: 'incident' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }, true],
    [{ OTEL_TRACES_EXPORTER: 'console' }, true],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }, false],
  ])('when the environment is %j, then traces are requested: %s', (env, expected) => {
    expect(tracesRequested(env)).toBe(expected);
  });
});
