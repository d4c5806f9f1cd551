import { formatFileSize, formatInputDate, formatMessageTime } from './format';

describe('report formatting', () => {
  it('when sizes are shown, then units step by 1000', () => {
    expect(formatFileSize(999, 'en')).toBe('999 B');
    expect(formatFileSize(1000, 'en')).toBe('1 kB');
    expect(formatFileSize(1500, 'en')).toBe('1.5 kB');
    expect(formatFileSize(25_000_000, 'en')).toBe('25 MB');
    expect(formatFileSize(1500, 'fr')).toBe('1,5 kB');
  });

  it('when dates are shown, then they are locale short dates on the typed day; messages show date then time', () => {
    expect(formatInputDate('2026-03-04', 'en-US')).toBe('3/4/26');
    expect(formatInputDate('2026-03-04', 'fr')).toBe('04/03/2026');
    const shown = formatMessageTime('2026-03-04T10:05:00Z', 'fr');
    expect(shown.indexOf('/2026')).toBeLessThan(shown.indexOf(':'));
  });
});
