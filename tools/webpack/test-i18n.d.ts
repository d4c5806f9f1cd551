/**
 * Typed by the caller with its own `i18n` type: the frontends resolve different i18next copies, and
 * this file's own resolution would pick the wrong one.
 */
export declare function initTestI18n<I18n>(language?: string): Promise<I18n>;
