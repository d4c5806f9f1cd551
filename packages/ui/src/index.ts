import './styles.css';

export { AppFrame, type AppFrameProps } from './app-frame.component';
export { Button, type ButtonProps } from './button.component';
export { CategoryPicker, type CategoryOption, type CategoryPickerProps } from './category-picker.component';
export { Choice, type ChoiceOption, type ChoiceProps } from './choice.component';
export { DateField, type DateFieldProps } from './date-field.component';
export {
  dateLocale,
  formatDate,
  formatDateTime,
  formatDay,
  formatDayRange,
  formatMonth,
  formatTime,
  isIsoDay,
  monthNames,
  type DateOptions,
  type DateTimeOptions,
  type DateValue,
} from './dates';
export { ErrorPage } from './error-page.component';
export { ErrorSummary, focusField, type ErrorSummaryEntry, type ErrorSummaryProps } from './error-summary.component';
export { reportError, setErrorReporter, useErrorReport } from './error-reporting';
export { LanguageChooser } from './language-chooser.component';
export { MenuButton, type MenuButtonProps, type MenuItem } from './menu-button.component';
export { MessagePage, type MessagePageProps } from './message-page.component';
export { RemoteUnavailable } from './remote-unavailable.component';
export { SelectField, type SelectFieldProps, type SelectOption } from './select-field.component';
export { Spinner } from './spinner.component';
export { TableScroll, type TableScrollProps } from './table-scroll.component';
export { TextArea, type TextAreaProps } from './text-area.component';
export { TextField, type TextFieldProps } from './text-field.component';
export { useDocumentTitle } from './use-document-title';
export { useAction, type Action, type ActionOptions } from './page-data/use-action';
export { useFailure } from './page-data/use-failure';
export { useLoad, type LoadOptions, type Loaded } from './page-data/use-load';
export {
  DEFAULT_LANGUAGE,
  DISCLOSER_LANGUAGES,
  DISCLOSER_NAMESPACES,
  LANGUAGE_NAMES,
  LANGUAGE_STORAGE_KEY,
  STAFF_LANGUAGES,
  SUPPORTED_LANGUAGES,
  hasTranslations,
  pluralLocale,
  isLanguage,
  languageDirection,
  languageOptions,
  type Language,
} from './languages';
export { ConfirmDialog, type ConfirmDialogProps } from './dialog.component';
export { TOAST_LIFETIME_MS, Toast, type ToastProps } from './toast.component';
