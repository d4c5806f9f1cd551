import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { listCases, type ApiClient } from '@whistle/api-client';
import type { AuditLogEntry } from '@whistle/contracts';
import { formatDateTime, TableScroll, useLoad } from '@whistle/ui';
import { useAuditWords, useStaffSession } from '@whistle/ui/staff';

/** How many case ids the list answers for at once (its `incident` filter). */
const IDS_PER_REQUEST = 50;

/**
 * The report numbers of the cases `ids` name, among those the admin may see (the list's `incident` filter): most
 * audit events carry only the case's id. A case deleted since (or a failed request) keeps its id.
 */
async function caseNumbers(api: ApiClient, ids: readonly string[], signal: AbortSignal) {
  const numbers = new Map<string, number>();
  for (let start = 0; start < ids.length; start += IDS_PER_REQUEST) {
    const chunk = ids.slice(start, start + IDS_PER_REQUEST);
    const page = await listCases(api, { incident: chunk, page_size: String(chunk.length) }, signal);
    for (const row of page.results) numbers.set(row.uuid, row.display_report_number);
  }
  return numbers;
}

/** An id in a compact cell: its first 8 characters, the whole id as its tooltip and for screen readers. */
function ShortId({ id }: { id: string }) {
  return (
    <code className="settings-id" title={id}>
      <span aria-hidden="true">{id.slice(0, 8)}…</span>
      <span className="wh-visually-hidden">{id}</span>
    </code>
  );
}

function EntryRow({ entry, number }: { entry: AuditLogEntry; number: number | undefined }) {
  const { t, i18n } = useTranslation('settings');
  const words = useAuditWords();
  const isCase = entry.table_identifier === 'incident' && entry.object_uuid === entry.incident_uuid;
  return (
    <tr>
      <td className="settings-nowrap">
        <time dateTime={entry.occurred_at}>{formatDateTime(entry.occurred_at, i18n.language, { seconds: true })}</time>
      </td>
      <th scope="row">{words.action(entry.action)}</th>
      <td>{entry.success ? t('auditLog.success') : <strong>{t('auditLog.refused')}</strong>}</td>
      <td>{words.actor(entry.actor)}</td>
      <td>
        {t(`auditLog.tables.${entry.table_identifier}`, { defaultValue: entry.table_identifier })}
        {/* The case itself is named in the next column, by its number. */}
        {entry.object_uuid && !(isCase && number !== undefined) && (
          <>
            {' '}
            <ShortId id={entry.object_uuid} />
          </>
        )}
      </td>
      <td className="settings-nowrap">
        {entry.incident_uuid && (
          // The case page belongs to another remote: a document link lets the shell mount it.
          <a href={`/company/incidents/${entry.incident_uuid}`}>
            {number === undefined ? (
              <>
                {t('auditLog.openCase')}
                <span className="wh-visually-hidden"> {entry.incident_uuid}</span>
              </>
            ) : (
              <>
                <span className="wh-visually-hidden">{t('auditLog.openCase')} </span>#{number}
              </>
            )}
          </a>
        )}
      </td>
    </tr>
  );
}

/**
 * The log's entries, one compact row each (the date on one line, ids shortened): the full width of the page,
 * scrolling sideways inside its frame on a narrow screen; a case named by its report number.
 */
export function AuditLogTable({ entries }: { entries: readonly AuditLogEntry[] }) {
  const { t } = useTranslation('settings');
  const { api } = useStaffSession();
  const ids = useMemo(
    () => [...new Set(entries.flatMap((entry) => (entry.incident_uuid ? [entry.incident_uuid] : [])))].sort(),
    [entries],
  );
  const key = ids.join(',');
  const { data: numbers } = useLoad(
    (signal) => (ids.length ? caseNumbers(api, ids, signal) : Promise.resolve(new Map<string, number>())),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the ids, by value
    [api, key],
    { shows: () => true },
  );
  return (
    <TableScroll label={t('auditLog.caption')}>
      <table className="settings-table settings-table--compact">
        <caption className="wh-visually-hidden">{t('auditLog.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('auditLog.columns.date')}</th>
            <th scope="col">{t('auditLog.columns.action')}</th>
            <th scope="col">{t('auditLog.columns.result')}</th>
            <th scope="col">{t('auditLog.columns.actor')}</th>
            <th scope="col">{t('auditLog.columns.object')}</th>
            <th scope="col">{t('auditLog.columns.case')}</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <EntryRow
              key={entry.uuid}
              entry={entry}
              number={entry.incident_uuid ? numbers?.get(entry.incident_uuid) : undefined}
            />
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
