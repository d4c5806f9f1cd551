import {
  createWriteBatcher,
  type NewEvent,
  type Queryable,
  type TraceContext,
  type WriteBatcher,
  type WriteWithEvents,
} from '@whistle/service-kit';
import {
  newReportsRepository,
  type NewReport,
  type Numbering,
  type ReportRequest,
} from '../../data-access/new-reports.repository';
import { reportRequestRepository } from '../../data-access/report-request.repository';
import { DIRECTIVE_CLOCKS_AT_RECEIPT, resolutionPeriod } from '../cases/legal-clocks';

/** Every report starts here; staff move it on. */
const INITIAL_STATUS = 'NEW';

/** A report as the request brought it, validated and hashed, waiting for its batch. */
export interface PendingReport {
  request: ReportRequest;
  /** The report but what its company decides: its number, deadline and default assignees. */
  report: Omit<NewReport, 'companyId' | 'displayReportNumber' | 'resolutionDueIn' | 'assigneeIds' | 'granteeIds'> & {
    /** Assigned besides its labels' assignees: the handler who recorded it. */
    alsoAssigned?: readonly string[];
    /** Admins and reviewers who hold a grant of it (an admin was kept out, so it has no company wrapping). */
    grantedEveryCaseIds?: readonly string[];
  };
  /** The request's trace context: its events continue its trace though a batch writes them. */
  traceContext: TraceContext | null;
}

/**
 * A report stored, or what its numbering found instead (an unknown company or label, a retry's earlier report), or
 * a report wrapped to a company key no longer kept (`stale-key`: newReportsRepository.storeStatement).
 */
export type ReportOutcome =
  Exclude<Numbering, { kind: 'numbered' }> | { kind: 'created'; displayReportNumber: number } | { kind: 'stale-key' };

export type ReportWriter = WriteBatcher<PendingReport, ReportOutcome>;

export interface ReportWriterDependencies {
  db: Queryable;
  writeWithEvents: WriteWithEvents;
  /** The deadline reminders' due-soon window: a new case is first looked at when its first clock enters it. */
  dueSoonWindowMs: number;
}

/**
 * Reports in one batch at most: two statements' parameters (about 6 KB a report, its encrypted fields and keys).
 * Two batches at once: one can be numbered while the other waits for its commit's flush.
 */
const MAX_BATCH_SIZE = 64;
const MAX_CONCURRENT_BATCHES = 2;

/** The events of a stored report: incident.created, and incident.assigned when its labels have assignees. */
function eventsOf(report: NewReport, traceContext: TraceContext | null): NewEvent[] {
  const events: NewEvent[] = [
    {
      name: 'incident.created',
      version: 2,
      company_id: report.companyId,
      payload: {
        incident_id: report.id,
        display_report_number: report.displayReportNumber,
        status: INITIAL_STATUS,
        report_channel: report.reportChannel,
        report_anonymously: report.reportAnonymously,
        category_ids: report.categoryIds,
        location_id: report.locationId,
        excluded_user_ids: report.excludedUserIds,
      },
      actor: report.recordedBy ? { type: 'STAFF', user_id: report.recordedBy } : { type: 'DISCLOSER' },
      trace_context: traceContext,
    },
  ];
  if (report.recordedBy)
    events.push({
      name: 'incident.recorded',
      company_id: report.companyId,
      payload: { incident_id: report.id, report_channel: report.reportChannel },
      actor: { type: 'STAFF', user_id: report.recordedBy },
      trace_context: traceContext,
    });
  if (report.assigneeIds.length > 0)
    events.push({
      name: 'incident.assigned',
      company_id: report.companyId,
      payload: {
        incident_id: report.id,
        display_report_number: report.displayReportNumber,
        assignee_ids: report.assigneeIds,
        added_ids: report.assigneeIds,
        removed_ids: [],
      },
      actor: { type: 'SYSTEM' },
      trace_context: traceContext,
    });
  return events;
}

/** Which reports of a batch were stored, and which were refused for a company key no longer kept. */
interface StoredBatch {
  created: Set<string>;
  staleKey: Set<string>;
}

/**
 * Where reports are written: the reports that arrive together are numbered in one statement and stored, with
 * their events, in a second (group commit: docs/performance.md, "Report creation"), so under load a report costs
 * a share of two statements and of one WAL flush instead of its own. A batch whose storing fails is stored again
 * report by report: one report the database refuses fails alone.
 */
export function createReportWriter(deps: ReportWriterDependencies): ReportWriter {
  async function store(
    reports: readonly { report: NewReport; traceContext: TraceContext | null }[],
  ): Promise<StoredBatch> {
    const statement = newReportsRepository.storeStatement(
      reports.map(({ report }) => report),
      {
        dueSoonWindowMs: deps.dueSoonWindowMs,
        acknowledgementDueIn: DIRECTIVE_CLOCKS_AT_RECEIPT.acknowledgement,
        feedbackDueAfterAcknowledgement: DIRECTIVE_CLOCKS_AT_RECEIPT.feedbackAfterAcknowledgementDue,
      },
    );
    const { created_ids: createdIds, stale_key_ids: staleKeyIds } = await deps.writeWithEvents<{
      created_ids: string[];
      stale_key_ids: string[];
    }>({
      ctes: statement.ctes,
      params: statement.params,
      select: statement.select,
      events: reports.flatMap(({ report, traceContext }) => eventsOf(report, traceContext)),
      onlyIf: statement.eventStored,
      name: 'incident-store-reports',
    });
    return { created: new Set(createdIds), staleKey: new Set(staleKeyIds) };
  }

  /**
   * A stored report's outcome; one not stored was wrapped to a key the company no longer keeps, or lost its key's
   * claim to a copy of its request stored meanwhile.
   */
  async function outcomeOf(report: NewReport, stored: StoredBatch): Promise<ReportOutcome> {
    if (stored.created.has(report.id)) return { kind: 'created', displayReportNumber: report.displayReportNumber };
    if (stored.staleKey.has(report.id)) return { kind: 'stale-key' };
    if (!report.idempotency) throw new Error('A report without an idempotency key was not stored');
    const earlier = await reportRequestRepository.earlier(deps.db, report.companyId, report.idempotency.key);
    if (!earlier) throw new Error('An idempotency key conflicted but its report is gone');
    return { kind: 'earlier', companyId: report.companyId, earlier };
  }

  async function write(items: readonly PendingReport[]): Promise<(ReportOutcome | Error)[]> {
    const numberings = await newReportsRepository.number(
      deps.db,
      items.map((item) => item.request),
    );
    const outcomes: (ReportOutcome | Error)[] = [];
    const numbered = numberings.flatMap((numbering, index) => {
      if (numbering.kind !== 'numbered') {
        outcomes[index] = numbering;
        return [];
      }
      const {
        report: { alsoAssigned = [], grantedEveryCaseIds = [], ...report },
        traceContext,
      } = items[index]!;
      const keptOut = new Set(report.excludedUserIds);
      const assigneeIds = [...new Set([...numbering.assigneeIds, ...alsoAssigned])].filter((id) => !keptOut.has(id));
      const complete: NewReport = {
        ...report,
        companyId: numbering.companyId,
        displayReportNumber: numbering.number,
        resolutionDueIn: resolutionPeriod(numbering.resolutionDeadlineDays),
        assigneeIds,
        granteeIds: [...new Set([...assigneeIds, ...grantedEveryCaseIds])].filter((id) => !keptOut.has(id)),
      };
      return [{ index, report: complete, traceContext }];
    });

    if (numbered.length === 0) return outcomes;

    let stored: StoredBatch | undefined;
    try {
      stored = await store(numbered);
    } catch (error) {
      if (numbered.length === 1) {
        outcomes[numbered[0]!.index] = error as Error;
        return outcomes;
      }
    }
    for (const entry of numbered) {
      try {
        // After a failed batch, each report alone: only one the database refuses fails.
        outcomes[entry.index] = await outcomeOf(entry.report, stored ?? (await store([entry])));
      } catch (error) {
        outcomes[entry.index] = error as Error;
      }
    }
    return outcomes;
  }

  return createWriteBatcher({ write, maxBatchSize: MAX_BATCH_SIZE, maxConcurrentBatches: MAX_CONCURRENT_BATCHES });
}
