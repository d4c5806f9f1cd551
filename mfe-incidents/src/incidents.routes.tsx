import type { ReactNode } from 'react';
import { StaffFrame, staffRoutes } from '@whistle/ui/staff';
import { IncidentListPage } from './incident-list/incident-list.page';

/**
 * /company/incidents (the list) and /company/incidents/{incidentUUID} (a case, loaded when opened). Team
 * and reporting come in their own issue; until then a translated "page not found".
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
    {
      path: 'incidents/:incidentUuid',
      lazy: async () => ({ Component: (await import('./incident-detail/incident-detail.page')).IncidentDetailPage }),
    },
  ],
});
