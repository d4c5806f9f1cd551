import { staffLifecycles } from '@whistle/ui/staff';
import { settingsRoutes } from './settings.routes';

/** Exposed as `mfe_settings/lifecycles`, mounted by the shell on its routes. */
export const { bootstrap, mount, unmount } = staffLifecycles(settingsRoutes, 'settings');
