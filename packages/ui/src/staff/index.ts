// The staff remotes' frame (@whistle/ui/staff): what every page of the company app builds on. A
// separate entry, shared as its own singleton, so the discloser pages never load it.
export { useAuditWords } from './audit-words';
export { StaffApp, type StaffAppProps } from './staff-app.component';
export { StaffFrame, type StaffFrameProps, type StaffNavigationLink } from './staff-frame.component';
export { staffLifecycles } from './staff-lifecycles';
export { StaffNotFound, staffRoutes, type StaffRoutesOptions } from './staff-routes';
export { StaffSessionContext, useStaffSession, useStaffState } from './staff-session.context';
export { useBrowserRouter } from './use-browser-router';
export { RecoveryKitSheet, type RecoveryKitSheetProps, type RecoveryKitView } from './recovery-kit.component';
export { usePageToast, type PageToastState } from './use-page-toast';
