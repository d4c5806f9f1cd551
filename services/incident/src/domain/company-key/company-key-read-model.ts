import type { EventPayload } from '@whistle/contracts';
import type { Queryable } from '@whistle/service-kit';
import { companyKeyRewrapRepository } from '../../data-access/company-key-rewrap.repository';

/** Auth started a rotation: cases are re-wrapped to `key_version` from now on. */
export const recordRotationStarted = (
  tx: Queryable,
  companyId: string,
  rotation: EventPayload<'company.key_rotation_started'>,
) =>
  companyKeyRewrapRepository.recordRotationStarted(tx, companyId, rotation.key_version, rotation.previous_key_version);

/** Auth deleted the previous key: no rotation is under way any more. */
export const recordRotationCompleted = (
  tx: Queryable,
  companyId: string,
  rotation: EventPayload<'company.key_rotation_completed'>,
) => companyKeyRewrapRepository.recordRotationCompleted(tx, companyId, rotation.key_version);
