import { staffRoutes } from '@whistle/ui/staff';
import { IncidentListPage } from './incident-list/incident-list.page';

/**
 * /company/incidents, /company/team and /company/reporting. The list page says where reports will
 * appear; the other pages come in later issues, until then a translated "page not found".
 */
export const incidentsRoutes = staffRoutes({
  namespace: 'incidents',
  pages: [{ path: 'incidents', Component: IncidentListPage }],
});
