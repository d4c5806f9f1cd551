import type { ReactNode } from 'react';
import { StaffFrame, staffRoutes } from '@whistle/ui/staff';
import { IncidentListPage } from './incident-list/incident-list.page';
import { InvitePage } from './team/invite.page';
import { TeamPage } from './team/team.page';

/**
 * /company/incidents (the list), /company/incidents/{incidentUUID} (a case, loaded when opened) and the
 * admins' /company/team with its child `add`, and the admins' /company/reporting (loaded when opened).
 */
/** Case pages are tables and side-by-side panels: the window's width. */
function CasesFrame({ children }: { children: ReactNode }) {
  return <StaffFrame wide>{children}</StaffFrame>;
}

export const incidentsRoutes = staffRoutes({
  namespace: 'incidents',
  Frame: CasesFrame,
  pages: [
    { path: 'incidents', Component: IncidentListPage },
    // A report taken by telephone or in a meeting (issue 26); before the case route, which it would otherwise be.
    {
      path: 'incidents/record',
      lazy: async () => ({ Component: (await import('./staff-intake/record-report.page')).RecordReportPage }),
    },
    {
      path: 'incidents/:incidentUuid',
      lazy: async () => ({ Component: (await import('./incident-detail/incident-detail.page')).IncidentDetailPage }),
    },
    { path: 'team', Component: TeamPage },
    { path: 'team/add', Component: InvitePage },
    // Loaded when opened: the chart library comes with this page only (docs/performance.md).
    {
      path: 'reporting',
      lazy: async () => ({ Component: (await import('./reporting/reporting.page')).ReportingPage }),
    },
  ],
});
