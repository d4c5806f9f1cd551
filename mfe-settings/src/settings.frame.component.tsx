import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AppFrame, LanguageChooser } from '@whistle/ui';

export function SettingsFrame({ children }: { children: ReactNode }) {
  const { t } = useTranslation('settings');
  return <AppFrame brand={<span>{t('brand')}</span>} tools={<LanguageChooser />}>{children}</AppFrame>;
}
