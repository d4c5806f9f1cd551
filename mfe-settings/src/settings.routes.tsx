import { Navigate } from 'react-router';
import { staffRoutes } from '@whistle/ui/staff';
import { AccountPage } from './account/account.page';
import { MfaSetupDialog } from './account/mfa-setup.dialog';
import { AuditLogPage } from './audit-log/audit-log.page';
import { CompanyPage } from './company/company.page';
import { DeadlinePage } from './company/deadline.page';
import { NotificationsPage } from './company/notifications.page';
import { RetentionPage } from './company/retention.page';
import { CategoriesPage } from './labels/categories.page';
import { CategoryFormPage } from './labels/category-form.page';
import { LocationFormPage } from './labels/location-form.page';
import { LocationsPage } from './labels/locations.page';
import { ReplyTemplateFormPage } from './reply-templates/reply-template-form.page';
import { ReplyTemplatesPage } from './reply-templates/reply-templates.page';
import { SecurityPage } from './security/security.page';
import { SsoPage } from './security/sso.page';
import { SettingsFrame } from './settings.frame.component';

/**
 * /company/settings/* (spec §2): account (with its MFA set-up dialog) for everyone; reporting labels,
 * locations, company, resolution deadline and notifications for admins, then data retention and the audit log
 * (the shell's guard sends others to account settings, and the API answers them 403).
 */
export const settingsRoutes = staffRoutes({
  namespace: 'settings',
  Frame: SettingsFrame,
  pages: [
    { path: 'settings', element: <Navigate to="/company/settings/account" replace /> },
    { path: 'settings/account', Component: AccountPage, children: [{ path: 'mfa', Component: MfaSetupDialog }] },
    { path: 'settings/categories', Component: CategoriesPage },
    { path: 'settings/categories/add', Component: CategoryFormPage },
    { path: 'settings/categories/edit/:categoryUuid', Component: CategoryFormPage },
    { path: 'settings/locations', Component: LocationsPage },
    { path: 'settings/locations/add', Component: LocationFormPage },
    { path: 'settings/locations/edit/:locationUuid', Component: LocationFormPage },
    { path: 'settings/reply-templates', Component: ReplyTemplatesPage },
    { path: 'settings/reply-templates/add', Component: ReplyTemplateFormPage },
    { path: 'settings/reply-templates/edit/:templateUuid', Component: ReplyTemplateFormPage },
    { path: 'settings/company', Component: CompanyPage },
    { path: 'settings/deadline', Component: DeadlinePage },
    { path: 'settings/notifications', Component: NotificationsPage },
    { path: 'settings/retention', Component: RetentionPage },
    { path: 'settings/sso', Component: SsoPage },
    { path: 'settings/security', Component: SecurityPage },
    { path: 'settings/audit-log', Component: AuditLogPage },
  ],
});
