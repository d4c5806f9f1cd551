import { addYears, reportingQuerySchema } from './reporting';

describe('reporting period', () => {
  it('when a period is given as two days, both included, then it is taken as it is', () => {
    expect(reportingQuerySchema.parse({ from: '2025-01-01', to: '2025-01-01' })).toEqual({
      from: '2025-01-01',
      to: '2025-01-01',
    });
  });

  it.each([
    [{ from: '2025-02-30', to: '2025-03-01' }, 'from'],
    [{ from: '2025-03-01' }, 'to'],
    [{ from: '2025-03-02', to: '2025-03-01' }, 'to'],
    [{ from: '2020-01-01', to: '2025-01-01' }, 'to'],
  ])('when the period is %j, then it is refused on %s', (query, field) => {
    const result = reportingQuerySchema.safeParse(query);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual([field]);
  });

  it('when a parameter is unknown, then the period is refused', () => {
    expect(reportingQuerySchema.safeParse({ from: '2025-01-01', to: '2025-02-01', status: 'NEW' }).success).toBe(false);
  });

  it('when five years are added to 29 February, then the period ends on 1 March', () => {
    expect(addYears('2024-02-29', 5)).toBe('2029-03-01');
    expect(reportingQuerySchema.safeParse({ from: '2024-02-29', to: '2029-02-28' }).success).toBe(true);
  });
});
