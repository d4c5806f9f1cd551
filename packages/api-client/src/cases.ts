import type {
  CaseLinksResponse,
  IncidentExportRow,
  IncidentFileSummary,
  IncidentListResponse,
  IncidentMessage,
  IncidentNote,
  IncidentSearchCorpusRow,
  IncidentStaffView,
  IncidentUpdateRequest,
  SavedView,
  SavedViewCreateRequest,
  StaffMessageCreateRequest,
} from '@whistle/contracts';
import { ApiError } from './api-error';
import type { ApiClient } from './client';

/** Query parameters of the list and the export, as the page keeps them in its URL. */
export type CaseQuery = Record<string, string | readonly string[] | undefined>;

/** `?a=1&b=x&b=y`: list values repeat their key (the server also takes comma lists). */
export function caseQueryString(query: CaseQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === '') continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, item as string);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

const casePath = (incidentUuid: string) => `/api/incident/${encodeURIComponent(incidentUuid)}`;

/** GET /api/incident/: one page of the cases the signed-in staff member may see. */
export const listCases = (api: ApiClient, query: CaseQuery, signal?: AbortSignal) =>
  api.request<IncidentListResponse>('GET', `/api/incident/${caseQueryString(query)}`, { signal });

/** GET /api/incident/{uuid}: the whole case (encrypted parts as the browsers made them) and a file token. */
export const getCase = (api: ApiClient, incidentUuid: string, signal?: AbortSignal) =>
  api.request<IncidentStaffView>('GET', casePath(incidentUuid), { signal });

/** PUT /api/incident/{uuid}/: a status move, assignees, exclusions or labels; answers the case as it is now. */
export const updateCase = (api: ApiClient, incidentUuid: string, update: IncidentUpdateRequest) =>
  api.request<IncidentStaffView>('PUT', `${casePath(incidentUuid)}/`, { body: update });

/** POST /api/incident/{uuid}/link: links the case to another; answers its links. */
export const linkCase = (api: ApiClient, incidentUuid: string, otherUuid: string) =>
  api.request<CaseLinksResponse>('POST', `${casePath(incidentUuid)}/link`, { body: { incident_uuid: otherUuid } });

/** DELETE /api/incident/{uuid}/link/{other}: unlinks the two cases; answers the case's links. */
export const unlinkCase = (api: ApiClient, incidentUuid: string, otherUuid: string) =>
  api.request<CaseLinksResponse>('DELETE', `${casePath(incidentUuid)}/link/${encodeURIComponent(otherUuid)}`);

/** POST /api/incident/{uuid}/print: puts a printing of the case on record, before the page prints. */
export const recordCasePrint = (api: ApiClient, incidentUuid: string) =>
  api.request<void>('POST', `${casePath(incidentUuid)}/print`);

/** POST /api/incident/message/ by staff: an encrypted reply, possibly the feedback the directive requires. */
export const sendStaffMessage = (api: ApiClient, message: StaffMessageCreateRequest) =>
  api.request<IncidentMessage>('POST', '/api/incident/message/', { body: message });

export const listCaseMessages = (api: ApiClient, incidentUuid: string, signal?: AbortSignal) =>
  api.request<IncidentMessage[]>('GET', `${casePath(incidentUuid)}/message`, { signal });

export const listCaseFiles = (api: ApiClient, incidentUuid: string, signal?: AbortSignal) =>
  api.request<IncidentFileSummary[]>('GET', `${casePath(incidentUuid)}/file`, { signal });

/** POST /api/incident/note/: a private note, encrypted to the incident key. */
export const addCaseNote = (api: ApiClient, note: { incident_uuid: string; content: string }) =>
  api.request<IncidentNote>('POST', '/api/incident/note/', { body: note });

export const listCaseNotes = (api: ApiClient, incidentUuid: string, signal?: AbortSignal) =>
  api.request<IncidentNote[]>('GET', `${casePath(incidentUuid)}/note`, { signal });

/** An NDJSON answer, one row at a time as they arrive, with the total from `X-Total-Count` before the first row. */
async function* ndjsonRows<Row>(
  api: ApiClient,
  path: string,
  { onTotal, signal }: { onTotal?: (total: number) => void; signal?: AbortSignal },
): AsyncGenerator<Row> {
  const url = `${api.baseUrl}${path}`;
  const response = await fetch(url, { headers: api.headers('application/x-ndjson'), credentials: 'omit', signal });
  if (!response.ok || !response.body) {
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: kept as text, as the client does for any non-JSON answer.
    }
    throw new ApiError(url, response.status, response.statusText, body);
  }
  onTotal?.(Number(response.headers.get('x-total-count') ?? 0));
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let pending = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    pending += value;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) yield JSON.parse(line) as Row;
  }
  if (pending.trim()) yield JSON.parse(pending) as Row;
}

/** GET /api/incident/export: the cases matching `query` (for a progress bar, `onTotal` gets their number first). */
export const exportCases = (
  api: ApiClient,
  query: CaseQuery,
  options: { onTotal?: (total: number) => void; signal?: AbortSignal } = {},
): AsyncGenerator<IncidentExportRow> =>
  ndjsonRows<IncidentExportRow>(api, `/api/incident/export${caseQueryString(query)}`, options);

/** GET /api/incident/search-corpus: every case the person may open, its keys and encrypted report fields. */
export const searchCorpus = (
  api: ApiClient,
  options: { onTotal?: (total: number) => void; signal?: AbortSignal } = {},
): AsyncGenerator<IncidentSearchCorpusRow> =>
  ndjsonRows<IncidentSearchCorpusRow>(api, '/api/incident/search-corpus', options);

/** GET /api/incident/saved-view/: the signed-in person's saved views of the list, by name. */
export const listSavedViews = (api: ApiClient, signal?: AbortSignal) =>
  api.request<SavedView[]>('GET', '/api/incident/saved-view/', { signal });

/** POST /api/incident/saved-view/: saves list filters under a name; answers the saved view. */
export const saveView = (api: ApiClient, view: SavedViewCreateRequest) =>
  api.request<SavedView>('POST', '/api/incident/saved-view/', { body: view });

/** DELETE /api/incident/saved-view/{uuid}: deletes one of the person's saved views. */
export const deleteSavedView = (api: ApiClient, viewUuid: string) =>
  api.request<void>('DELETE', `/api/incident/saved-view/${encodeURIComponent(viewUuid)}`);
