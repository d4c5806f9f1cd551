import { staffLifecycles } from '@whistle/ui/staff';
import { incidentsRoutes } from './incidents.routes';

/** Exposed as `mfe_incidents/lifecycles`, mounted by the shell on its routes. */
export const { bootstrap, mount, unmount } = staffLifecycles(incidentsRoutes, 'incidents');
