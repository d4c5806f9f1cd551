import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker, useNavigate } from 'react-router';
import { ApiError, type ApiClient } from '@whistle/api-client';
import { countries, type CompanyPublicView } from '@whistle/contracts';
import { createIncidentCredentials, type IncidentCredentials } from '@whistle/crypto';
import { Button, ConfirmDialog, SelectField, TextField, useDocumentTitle } from '@whistle/ui';
import { useCompany } from '../company/company.layout';
import { holdSubmission } from '../session/secret-code.store';
import { useUnloadWarning } from '../session/use-unload-warning';
import { isLoaded, type PendingFile } from '../report/attachment';
import { FilePicker } from '../report/file-picker.component';
import { emptyReportForm, validateReport, type ReportErrors, type ReportForm, type RequiredField } from './report-form';
import { submitReport } from './submit-report';

type Category = CompanyPublicView['categories'][number];

function TextArea({
  name,
  label,
  value,
  onChange,
  error,
}: {
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  const id = useId();
  return (
    <div className={error ? 'wh-field wh-field--invalid' : 'wh-field'}>
      <label className="wh-field__label" htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        name={name}
        className="wh-input"
        rows={5}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && (
        <p className="wh-field__error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

function Choice({
  name,
  legend,
  options,
  value,
  onChange,
}: {
  name: string;
  legend: string;
  options: { value: string; label: string }[];
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <fieldset className="disclose-choice">
      <legend className="wh-field__label">{legend}</legend>
      {options.map((option) => (
        <label key={option.value}>
          <input
            type="radio"
            name={name}
            value={option.value}
            checked={value === option.value}
            onChange={() => onChange(option.value)}
          />{' '}
          {option.label}
        </label>
      ))}
    </fieldset>
  );
}

function CategoryPicker({
  categories,
  selected,
  onToggle,
  error,
}: {
  categories: Category[];
  selected: string[];
  onToggle: (uuid: string) => void;
  error?: string;
}) {
  const { t } = useTranslation('disclose');
  const errorId = useId();
  const topLevel = categories.filter(
    (category) => !category.parent_uuid || !categories.some((other) => other.uuid === category.parent_uuid),
  );
  const box = (category: Category, children?: ReactNode) => (
    <li key={category.uuid}>
      <label>
        <input
          type="checkbox"
          name="category_uuids"
          value={category.uuid}
          checked={selected.includes(category.uuid)}
          onChange={() => onToggle(category.uuid)}
        />{' '}
        {category.name}
      </label>
      {children}
    </li>
  );
  return (
    <fieldset
      className={error ? 'disclose-categories wh-field--invalid' : 'disclose-categories'}
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? errorId : undefined}
    >
      <legend className="wh-field__label">{t('create.category_uuids')}</legend>
      <ul>
        {topLevel.map((parent) => {
          const subs = categories.filter((category) => category.parent_uuid === parent.uuid);
          return box(parent, subs.length > 0 ? <ul>{subs.map((sub) => box(sub))}</ul> : undefined);
        })}
      </ul>
      {error && (
        <p className="wh-field__error" id={errorId}>
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** Server field errors (400) shown like the form's own, when they name a required input. */
const serverErrors = (error: unknown): ReportErrors | null => {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const errors = (error.body as { errors?: Record<string, unknown> } | null)?.errors ?? {};
  const known = (['category_uuids', 'location_uuid', 'description'] as RequiredField[]).filter(
    (name) => name in errors,
  );
  return known.length > 0 ? Object.fromEntries(known.map((name) => [name, true])) : null;
};

/** /disclose/{urlIdentifier}/create: the report form (spec §3), encrypted in this browser before sending. */
export function CreatePage({ api }: { api: ApiClient }) {
  const company = useCompany();
  const { t } = useTranslation(['disclose', 'common']);
  const navigate = useNavigate();
  useDocumentTitle(t('create.title'));
  const [form, setForm] = useState<ReportForm>(emptyReportForm);
  const [errors, setErrors] = useState<ReportErrors>({});
  const [files, setFiles] = useState<PendingFile[]>([]);
  const [credentials, setCredentials] = useState<IncidentCredentials | null>(null);
  const [credentialsFailed, setCredentialsFailed] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [sending, setSending] = useState(false);
  const [failed, setFailed] = useState(false);
  const submitted = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);

  // Spec §4: the form waits for the incident credentials made from the company public key.
  useEffect(() => {
    let live = true;
    createIncidentCredentials(company.public_key)
      .then((made) => live && setCredentials(made))
      .catch(() => live && setCredentialsFailed(true));
    return () => {
      live = false;
    };
  }, [company.public_key]);

  // Spec §4: leaving for anywhere but the create page asks first.
  const blocker = useBlocker(({ nextLocation }) => !submitted.current && !nextLocation.pathname.endsWith('/create'));
  useUnloadWarning(() => !submitted.current);

  const fileLoading = files.some((file) => !isLoaded(file));
  const canSubmit = credentials !== null && !fileLoading && !sending;
  const set = <K extends keyof ReportForm>(name: K, value: ReportForm[K]) => {
    setForm((current) => ({ ...current, [name]: value }));
    if (name in errors) setErrors((current) => ({ ...current, [name]: undefined }));
  };
  const required = (name: RequiredField) => (errors[name] ? t('common:validation.required') : undefined);

  const dialCodes = useMemo(
    () =>
      countries.map((country) => ({
        value: `${country.code}:${country.dialCode}`,
        label: `${country.flag} ${country.name} (${country.dialCode})`,
      })),
    [],
  );

  function isValid() {
    const found = validateReport(form);
    setErrors(found);
    if (Object.keys(found).length === 0) return true;
    // Focus the first invalid input so keyboard and screen reader users land on the message.
    requestAnimationFrame(() =>
      formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"] input, [aria-invalid="true"]')?.focus(),
    );
    return false;
  }

  function checkAndConfirm(event: FormEvent) {
    event.preventDefault();
    if (isValid()) setConfirming(true);
  }

  async function send() {
    if (!credentials) return;
    setConfirming(false);
    setSending(true);
    setFailed(false);
    try {
      const result = await submitReport({
        api,
        company,
        credentials,
        form: { ...form, phone_number_code: form.phone_number_code.split(':')[1] ?? '' },
        files: files.filter(isLoaded),
        onFileProgress: (id, progress) =>
          setFiles((current) => current.map((file) => (file.id === id ? { ...file, progress } : file))),
      });
      holdSubmission(result);
      submitted.current = true;
      navigate('../success', { replace: true, relative: 'path' });
    } catch (error) {
      const fieldErrors = serverErrors(error);
      if (fieldErrors) setErrors(fieldErrors);
      else setFailed(true);
      setSending(false);
    }
  }

  const yesNo = [
    { value: 'yes', label: t('create.yes') },
    { value: 'no', label: t('create.no') },
  ];
  const promptOpen = confirming || blocker.state === 'blocked';

  return (
    <article className="wh-card disclose-create">
      <h1>{t('create.title')}</h1>
      <p>{t('create.intro')}</p>
      <form ref={formRef} noValidate onSubmit={checkAndConfirm} aria-busy={sending || undefined}>
        <Choice
          name="report_channel"
          legend={t('create.report_channel')}
          value={form.report_channel}
          options={(['online', 'telephone', 'internal'] as const).map((value) => ({
            value,
            label: t(`create.channels.${value}`),
          }))}
          onChange={(value) => set('report_channel', value as ReportForm['report_channel'])}
        />
        <label className="disclose-toggle">
          <input
            type="checkbox"
            role="switch"
            name="report_anonymously"
            checked={form.report_anonymously}
            onChange={(event) => set('report_anonymously', event.target.checked)}
          />{' '}
          {t('create.report_anonymously')}
        </label>
        {!form.report_anonymously && (
          <fieldset className="disclose-identity">
            <legend className="wh-field__label">{t('create.identity')}</legend>
            <TextField
              name="full_name"
              label={t('create.full_name')}
              autoComplete="name"
              value={form.full_name}
              onChange={(event) => set('full_name', event.target.value)}
            />
            <TextField
              name="email"
              type="email"
              label={t('create.email')}
              autoComplete="email"
              value={form.email}
              onChange={(event) => set('email', event.target.value)}
            />
            <div className="disclose-phone">
              <SelectField
                name="phone_number_code"
                label={t('create.phone_number_code')}
                placeholder={t('create.phoneCodePlaceholder')}
                options={dialCodes}
                value={form.phone_number_code}
                onChange={(event) => set('phone_number_code', event.target.value)}
              />
              <TextField
                name="phone_number"
                type="tel"
                label={t('create.phone_number')}
                autoComplete="tel-national"
                value={form.phone_number}
                onChange={(event) => set('phone_number', event.target.value)}
              />
            </div>
          </fieldset>
        )}
        <CategoryPicker
          categories={company.categories}
          selected={form.category_uuids}
          error={required('category_uuids')}
          onToggle={(uuid) =>
            set(
              'category_uuids',
              form.category_uuids.includes(uuid)
                ? form.category_uuids.filter((selected) => selected !== uuid)
                : [...form.category_uuids, uuid],
            )
          }
        />
        <TextArea
          name="description"
          label={t('create.description')}
          value={form.description}
          onChange={(value) => set('description', value)}
          error={required('description')}
        />
        <SelectField
          name="location_uuid"
          label={t('create.location_uuid')}
          placeholder={t('create.locationPlaceholder')}
          error={required('location_uuid')}
          options={company.locations.map((location) => ({ value: location.uuid, label: location.name }))}
          value={form.location_uuid}
          onChange={(event) => set('location_uuid', event.target.value)}
        />
        <TextField
          name="location_detail"
          label={t('create.location_detail')}
          value={form.location_detail}
          onChange={(event) => set('location_detail', event.target.value)}
        />
        <div className="disclose-dates">
          <TextField
            name="date"
            type="date"
            label={t('create.date')}
            value={form.date}
            onChange={(event) => set('date', event.target.value)}
          />
          <TextField
            name="end_date"
            type="date"
            label={t('create.end_date')}
            min={form.date || undefined}
            value={form.end_date}
            onChange={(event) => set('end_date', event.target.value)}
          />
        </div>
        <TextArea
          name="people_involved"
          label={t('create.people_involved')}
          value={form.people_involved}
          onChange={(value) => set('people_involved', value)}
        />
        <TextArea
          name="outcome"
          label={t('create.outcome')}
          value={form.outcome}
          onChange={(value) => set('outcome', value)}
        />
        <Choice
          name="can_contact"
          legend={t('create.can_contact')}
          options={yesNo}
          value={form.can_contact}
          onChange={(value) => set('can_contact', value as 'yes' | 'no')}
        />
        <Choice
          name="previous_report"
          legend={t('create.previous_report')}
          options={yesNo}
          value={form.previous_report}
          onChange={(value) => set('previous_report', value as 'yes' | 'no')}
        />
        {form.previous_report === 'yes' && (
          <TextArea
            name="previous_report_details"
            label={t('create.previous_report_details')}
            value={form.previous_report_details}
            onChange={(value) => set('previous_report_details', value)}
          />
        )}
        <FilePicker files={files} onChange={setFiles} label={t('create.files')} disabled={sending} />
        {credentialsFailed && (
          <p className="wh-alert" role="alert">
            {t('create.credentialsFailed')}
          </p>
        )}
        {failed && (
          <p className="wh-alert" role="alert">
            {t('create.failed')}
          </p>
        )}
        <div className="wh-actions">
          <Button type="submit" disabled={!canSubmit} busy={sending}>
            {sending ? t('common:loading') : t('create.submit')}
          </Button>
          {credentials === null && !credentialsFailed && <p role="status">{t('create.preparing')}</p>}
        </div>
      </form>
      <ConfirmDialog
        open={promptOpen}
        title={t('create.confirm.title')}
        confirmLabel={t('create.confirm.submit')}
        cancelLabel={t('create.confirm.back')}
        confirmDisabled={!canSubmit}
        onConfirm={() => {
          // Reached by leaving the page: the form is checked first, as by its submit button.
          if (blocker.state === 'blocked') {
            blocker.reset();
            if (!isValid()) return;
          }
          void send();
        }}
        onCancel={() => {
          setConfirming(false);
          if (blocker.state === 'blocked') blocker.reset();
        }}
      />
    </article>
  );
}
