import { formatFileSize } from './format';

describe('report formatting', () => {
  it('when sizes are shown, then units step by 1000', () => {
    expect(formatFileSize(999, 'en')).toBe('999 B');
    expect(formatFileSize(1000, 'en')).toBe('1 kB');
    expect(formatFileSize(1500, 'en')).toBe('1.5 kB');
    expect(formatFileSize(25_000_000, 'en')).toBe('25 MB');
    expect(formatFileSize(1500, 'fr')).toBe('1,5 kB');
  });
});
