import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';

export const renderWithI18n = (ui: ReactElement, instance: i18n) =>
  render(<I18nextProvider i18n={instance}>{ui}</I18nextProvider>);
