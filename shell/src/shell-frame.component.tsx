import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AppFrame, LanguageChooser } from '@whistle/ui';

/** Header of the pages the shell draws itself: product name and language chooser. */
export function ShellFrame({ children }: { children: ReactNode }) {
  const { t } = useTranslation('shell');
  return (
    <AppFrame brand={<span>{t('brand')}</span>} tools={<LanguageChooser />}>
      {children}
    </AppFrame>
  );
}
