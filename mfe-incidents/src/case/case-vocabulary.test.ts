import { incidentClockNames, incidentOutcomes, incidentStatuses, incidentStatusTransitions } from '@whistle/contracts';
import { CLOCK_NAMES, INCIDENT_OUTCOMES, INCIDENT_STATUSES, STATUS_TRANSITIONS } from './case-vocabulary';

test('when the pages list statuses, outcomes, moves and clocks, then they are the contracts’ own', () => {
  expect(INCIDENT_STATUSES).toEqual(incidentStatuses);
  expect(INCIDENT_OUTCOMES).toEqual(incidentOutcomes);
  expect(STATUS_TRANSITIONS).toEqual(incidentStatusTransitions);
  expect(CLOCK_NAMES).toEqual(incidentClockNames);
});
