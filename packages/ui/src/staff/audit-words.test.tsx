import type { ReactNode } from 'react';
import type { i18n } from 'i18next';
import { renderHook } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { auditActions } from '@whistle/contracts';
import { initTestI18n } from '../../../../tools/webpack/test-i18n';
import { useAuditWords } from './audit-words';

async function wordsIn(language: string) {
  const instance = await initTestI18n<i18n>(language);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <I18nextProvider i18n={instance}>{children}</I18nextProvider>
  );
  return renderHook(() => useAuditWords(), { wrapper }).result.current;
}

describe('audit trail words', () => {
  it('when the trail is read in English or French, then every recorded action has plain words of its own in each', async () => {
    const [english, french] = await Promise.all([wordsIn('en'), wordsIn('fr')]);
    expect(auditActions.filter((action) => english.action(action) === action)).toEqual([]);
    // French falls back to English: a French word equal to the English one is a missing translation.
    expect(auditActions.filter((action) => french.action(action) === english.action(action))).toEqual([]);
    expect(new Set(auditActions.map(english.action)).size).toBe(auditActions.length);
    expect(new Set(auditActions.map(french.action)).size).toBe(auditActions.length);
  });

  it('when an action is one this version does not know, then it shows as recorded', async () => {
    const words = await wordsIn('fr');
    expect(words.action('incident-teleported')).toBe('incident-teleported');
    expect(words.action('incident-opened')).toBe('Dossier consulté');
  });

  it('when the actor is not staff, then the reader’s words name them; staff keep their name at the time', async () => {
    const words = await wordsIn('fr');
    expect(words.actor({ type: 'DISCLOSER', name: 'Discloser' })).toBe('Lanceur d’alerte');
    expect(words.actor({ type: 'SYSTEM', name: 'Whistle' })).toBe('Whistle');
    expect(words.actor({ type: 'STAFF', name: 'Ada Lovelace' })).toBe('Ada Lovelace');
  });
});
