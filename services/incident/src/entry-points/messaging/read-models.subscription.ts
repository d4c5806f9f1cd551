import { eventHandlers, ofCompany, type ServiceSubscription, type Transaction } from '@whistle/service-kit';
import {
  recordCategory,
  recordCompany,
  recordCompanySettings,
  recordLocation,
  removeCategory,
  removeLocation,
} from '../../domain/company/company-read-model';
import { recordRotationCompleted, recordRotationStarted } from '../../domain/company-key/company-key-read-model';
import { recordAnnouncedFile } from '../../domain/files/file-read-model';
import { recordStaffKey, recordStaffMember, removeStaffMember } from '../../domain/staff/staff-read-model';
import { tokenRevocations } from '../../domain/staff/token-revocations';

/** The read models kept from other services' events: one consumer (one queue), so each event reaches its handler once. */
export const readModelsSubscription: ServiceSubscription = {
  consumer: 'incident',
  ...eventHandlers<Transaction>({
    ...tokenRevocations.handlers,
    'company.created@1': (tx, { payload }) => recordCompany(tx, payload),
    'company.created@2': (tx, { payload }) => recordCompany(tx, payload),
    'company.updated@1': ofCompany((tx, event) => recordCompanySettings(tx, event.company_id, event.payload)),
    'category.created@1': ofCompany((tx, event) => recordCategory(tx, event.company_id, event.payload)),
    'category.updated@1': ofCompany((tx, event) => recordCategory(tx, event.company_id, event.payload)),
    'category.deleted@1': ofCompany((tx, event) => removeCategory(tx, event.company_id, event.payload.category_id)),
    'location.created@1': ofCompany((tx, event) => recordLocation(tx, event.company_id, event.payload)),
    'location.updated@1': ofCompany((tx, event) => recordLocation(tx, event.company_id, event.payload)),
    'location.deleted@1': ofCompany((tx, event) => removeLocation(tx, event.company_id, event.payload.location_id)),
    'user.created@1': ofCompany((tx, event) => recordStaffMember(tx, event.company_id, event.payload)),
    'user.updated@1': ofCompany((tx, event) => recordStaffMember(tx, event.company_id, event.payload)),
    // v2 of both: a language too, which this service does not use.
    'user.created@2': ofCompany((tx, event) => recordStaffMember(tx, event.company_id, event.payload)),
    'user.updated@2': ofCompany((tx, event) => recordStaffMember(tx, event.company_id, event.payload)),
    'user.keys_created@1': ofCompany((tx, event) => recordStaffKey(tx, event.company_id, event.payload)),
    'user.deleted@1': ofCompany(async (tx, event) => {
      await removeStaffMember(tx, event.company_id, event.payload);
      await tokenRevocations.handlers['user.deleted@1'](tx, event);
    }),
    // Which company key version the cases are re-wrapped to, and when the previous one is gone.
    'company.key_rotation_started@1': ofCompany((tx, event) =>
      recordRotationStarted(tx, event.company_id, event.payload),
    ),
    'company.key_rotation_completed@1': ofCompany((tx, event) =>
      recordRotationCompleted(tx, event.company_id, event.payload),
    ),
    'incident.file.created@1': ofCompany((tx, event) =>
      recordAnnouncedFile(tx, { ...event.payload, companyId: event.company_id, createdAt: event.occurred_at }),
    ),
  }),
};
