import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { waitUntilFound } from './wait-until-found';

/** One item of an envelope: its header line and its payload, parsed when it is JSON. */
export interface EnvelopeItem {
  header: { type?: string; length?: number; [key: string]: unknown };
  payload: unknown;
}

/** A Sentry envelope as the server received it, with the raw text, to search for what must not be in it. */
export interface ReceivedEnvelope {
  projectId: string;
  /** Query string of the request: `sentry_key`, `sentry_version`. */
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  header: Record<string, unknown>;
  items: EnvelopeItem[];
  raw: string;
}

export interface SentryServer {
  /** A DSN of this server for project `projectId` (1 by default). */
  dsn(projectId?: number): string;
  readonly envelopes: ReceivedEnvelope[];
  /** Items of every envelope received so far of `type` (`event`, `transaction`, `session`...). */
  items(type: string): EnvelopeItem[];
  /** The first received item of `type` `predicate` accepts, waiting for it (20 s at most). */
  waitForItem(type: string, predicate?: (payload: Record<string, unknown>) => boolean): Promise<EnvelopeItem>;
  close(): Promise<void>;
}

/**
 * Parses the envelope wire format: a header line, then items, each a header line and a payload of the
 * header's `length` bytes, or up to the next newline when it has none.
 */
export function parseEnvelope(body: Buffer): Pick<ReceivedEnvelope, 'header' | 'items'> {
  let offset = 0;
  const line = () => {
    const end = body.indexOf(0x0a, offset);
    const text = body.subarray(offset, end === -1 ? body.length : end).toString('utf8');
    offset = end === -1 ? body.length : end + 1;
    return text;
  };
  const header = JSON.parse(line()) as Record<string, unknown>;
  const items: EnvelopeItem[] = [];
  while (offset < body.length) {
    const itemHeaderLine = line();
    if (itemHeaderLine === '') continue;
    const itemHeader = JSON.parse(itemHeaderLine) as EnvelopeItem['header'];
    let payloadText: string;
    if (typeof itemHeader.length === 'number') {
      payloadText = body.subarray(offset, offset + itemHeader.length).toString('utf8');
      offset += itemHeader.length;
      if (body[offset] === 0x0a) offset += 1;
    } else payloadText = line();
    let payload: unknown = payloadText;
    try {
      payload = JSON.parse(payloadText);
    } catch {
      // An attachment or another binary item: kept as text.
    }
    items.push({ header: itemHeader, payload });
  }
  return { header, items };
}

/**
 * A Sentry-compatible ingest endpoint on loopback (`POST /api/<project>/envelope/`) that keeps every envelope
 * it receives, parsed from the real wire format (gzip-encoded bodies too), and answers 200 as Sentry does.
 */
export async function startSentryServer(): Promise<SentryServer> {
  const envelopes: ReceivedEnvelope[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sentry.test');
    const match = /^\/api\/(\d+)\/envelope\/?$/.exec(url.pathname);
    if (req.method !== 'POST' || !match) {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      try {
        envelopes.push({
          projectId: match[1]!,
          query: url.searchParams,
          headers: req.headers,
          ...parseEnvelope(body),
          raw: body.toString('utf8'),
        });
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const items = (type: string) =>
    envelopes.flatMap((envelope) => envelope.items).filter((item) => item.header.type === type);
  return {
    dsn: (projectId = 1) => `http://publickey@127.0.0.1:${port}/${projectId}`,
    envelopes,
    items,
    waitForItem: (type, predicate = () => true) =>
      waitUntilFound(
        () => items(type).find((item) => predicate(item.payload as Record<string, unknown>)),
        () => `No ${type} envelope item arrived (${envelopes.length} envelopes)`,
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
