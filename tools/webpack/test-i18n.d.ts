import type { i18n } from 'i18next';

export declare function initTestI18n(language?: string): Promise<i18n>;
