import type { CompanyUpdateRequest, EventPayload } from '@whistle/contracts';
import { NotFoundError } from '@whistle/service-kit';
import type { StaffPrincipal } from '@whistle/tokens';
import { companyRepository } from '../../data-access/company.repository';
import type { LabelDependencies } from '../labels/label-dependencies';

/**
 * PUT /api/account/company (ADMIN): name and country, the resolution deadline, notification switches, or whether the
 * report form names the case team (which `company.updated` leaves out, but its announcement renews the public view).
 * `company.updated` carries the whole resulting state, so every consumer simply overwrites its copy.
 */
export async function updateCompany(
  deps: LabelDependencies,
  principal: StaffPrincipal,
  input: CompanyUpdateRequest,
): Promise<EventPayload<'company.updated'>> {
  return deps.unitOfWork(async (tx) => {
    const notifications = input.settings?.notifications
      ? Object.fromEntries(
          Object.entries(input.settings.notifications).filter(
            (entry): entry is [string, boolean] => entry[1] !== undefined,
          ),
        )
      : undefined;
    const row = await companyRepository.updateSettings(tx, principal.companyId, {
      name: input.name,
      country: input.country,
      resolutionDeadlineDays: input.settings?.resolution_deadline_days,
      notifications,
      showsRecipientNames: input.settings?.shows_recipient_names,
    });
    if (!row) throw new NotFoundError('Company not found');
    const state: EventPayload<'company.updated'> = {
      name: row.name,
      country: row.country,
      resolution_deadline_days: row.resolution_deadline_days,
      notifications: {
        new_incidents: row.notifications.new_incidents ?? true,
        assigned_to_an_incident: row.notifications.assigned_to_an_incident ?? true,
        incident_updates: row.notifications.incident_updates ?? true,
        deadlines: row.notifications.deadlines ?? true,
      },
    };
    await tx.addEvent({
      name: 'company.updated',
      company_id: principal.companyId,
      payload: state,
      actor: { type: 'STAFF', user_id: principal.userId },
    });
    return state;
  });
}
