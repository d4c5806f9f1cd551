import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startCluster, type ClusterPlatform } from '../../src/cluster';
import { publicView, reportBody } from '../../src/reports';
import { onboardCompany } from '../../src/staff';

/** The parts of an OTLP/HTTP JSON export request (opentelemetry-proto's ExportTraceServiceRequest) read here. */
interface OtlpAnyValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
  arrayValue?: { values?: OtlpAnyValue[] };
}
interface OtlpKeyValue {
  key: string;
  value: OtlpAnyValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: OtlpKeyValue[];
  events?: { name: string; attributes?: OtlpKeyValue[] }[];
  status?: { code?: number; message?: string };
}
interface OtlpExportRequest {
  resourceSpans?: { resource?: { attributes?: OtlpKeyValue[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
}

/** SpanKind in OTLP: SERVER 2, PRODUCER 4, CONSUMER 5. */
const SERVER = 2;
const PRODUCER = 4;
const CONSUMER = 5;

interface ReceivedSpan extends OtlpSpan {
  service: string;
  attributeMap: Record<string, unknown>;
}

const valueOf = (value: OtlpAnyValue): unknown =>
  value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue ?? value.arrayValue?.values?.map(valueOf);

/** A loopback OTLP/HTTP collector: keeps every span the services export (http/json), with its service's name. */
async function startOtlpReceiver(): Promise<{ endpoint: string; spans: ReceivedSpan[]; close(): Promise<void> }> {
  const spans: ReceivedSpan[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !req.headers['content-type']?.includes('json')) {
        res.writeHead(415).end();
        return;
      }
      const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExportRequest;
      for (const resourceSpans of request.resourceSpans ?? []) {
        const service = String(
          valueOf(resourceSpans.resource?.attributes?.find((kv) => kv.key === 'service.name')?.value ?? {}),
        );
        for (const scope of resourceSpans.scopeSpans ?? [])
          for (const span of scope.spans ?? [])
            spans.push({
              ...span,
              service,
              attributeMap: Object.fromEntries((span.attributes ?? []).map((kv) => [kv.key, valueOf(kv.value)])),
            });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function eventually<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(200);
  }
}

/** Every string in a JSON value (a request body's field values, keys and ciphertexts). */
function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

/**
 * Issue 14 item 3: in cluster mode (a process per service on PostgreSQL and RabbitMQ) a report's path from
 * POST /api/incident/ through the incident outbox to its consumers is one trace, exported over OTLP as the
 * standard variables say, and no span says anything of the report, the query string, a token or the client.
 */
describe('traces in cluster mode', () => {
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let platform: ClusterPlatform;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    platform = await startCluster({
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '200',
      },
    });
  });
  afterAll(async () => {
    await platform?.stop();
    await receiver?.close();
  });

  it('when a report is posted, then its request, the outbox publish and the audit and notification consumptions are one trace with the right parents, and no span holds a value of the request', async () => {
    const company = await onboardCompany(platform);
    const view = await publicView(platform.baseUrl, company.urlIdentifier);
    const body = await reportBody(view, { description: 'canary-description-in-clear' });
    // A company just onboarded reaches the incident service through its event: until then, 'Unknown company'.
    const created = await eventually('the report accepted', async () => {
      const response = await fetch(`${platform.baseUrl}/api/incident/?canary=canary-query-value`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'user-agent': 'canary-agent' },
        body: JSON.stringify(body),
      });
      if (response.status === 201) return (await response.json()) as { uuid: string; retrieval_id: string };
      const refusal = await response.text();
      if (!refusal.includes('Unknown company')) throw new Error(`The report answered ${response.status}: ${refusal}`);
      return undefined;
    });
    // The discloser's retrieval with a token that is refused: the id and the token are secrets too.
    const retrieval = await fetch(
      `${platform.baseUrl}/api/incident/discloser?url_identifier=${company.urlIdentifier}&retrieval_id=${created.retrieval_id}`,
      { headers: { accept: 'application/json', authorization: 'Bearer canary-token-value' } },
    );
    expect(retrieval.status).toBe(401);

    const request = await eventually('the server span of POST /api/incident/', () =>
      receiver.spans.find(
        (span) =>
          span.service === 'incident' &&
          span.kind === SERVER &&
          ['/api/incident', '/api/incident/'].includes(String(span.attributeMap['http.route'])) &&
          Number(span.attributeMap['http.response.status_code'] ?? span.attributeMap['http.status_code']) === 201 &&
          (span.attributeMap['http.request.method'] ?? span.attributeMap['http.method']) === 'POST',
      ),
    );
    const inTrace = () => receiver.spans.filter((span) => span.traceId === request.traceId);
    const publish = await eventually('the publish span of incident.created', () =>
      inTrace().find((span) => span.kind === PRODUCER && span.name === 'publish incident.created'),
    );
    const consumers = await eventually('the audit and notification consumptions', () => {
      const processed = inTrace().filter((span) => span.kind === CONSUMER && span.name === 'process incident.created');
      const services = new Set(processed.map((span) => span.service));
      return services.has('audit') && services.has('notification') ? processed : undefined;
    });

    // The publish span continues the request's trace from the outbox row: a child of a span of the request.
    expect(publish.service).toBe('incident');
    const requestSpanIds = new Set(
      inTrace()
        .filter((span) => span.service === 'incident')
        .map((s) => s.spanId),
    );
    expect(requestSpanIds.has(publish.parentSpanId ?? '')).toBe(true);
    expect(publish.parentSpanId).not.toBe(publish.spanId);
    // Each consumer's span is a child of the publish span, carried in the AMQP message's headers.
    for (const consumer of consumers) expect(consumer.parentSpanId).toBe(publish.spanId);
    // The consumers' own database work is inside their span.
    const audit = consumers.find((span) => span.service === 'audit')!;
    await eventually('a query of the audit consumer', () =>
      inTrace().find(
        (span) => span.service === 'audit' && span.parentSpanId === audit.spanId && /pg|SELECT|INSERT/i.test(span.name),
      ),
    );

    // Give every service a moment to export the rest (the retrieval's spans among them).
    await sleep(1500);
    const exported = JSON.stringify(
      receiver.spans.map((span) => [span.name, span.attributes, span.events, span.status]),
    );
    const canaries = [
      'canary-query-value',
      'canary-agent',
      'canary-token-value',
      created.retrieval_id,
      ...stringsIn(body).filter((value) => value.length >= 12),
    ];
    for (const canary of canaries)
      expect({ canary, found: exported.includes(canary) }).toEqual({ canary, found: false });
    // No client address either (every process here talks over 127.0.0.1).
    expect(exported).not.toContain('127.0.0.1');
  });
});
