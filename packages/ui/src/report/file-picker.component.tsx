import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isLoaded, isTooLarge, type PendingFile } from './attachment';
import { formatFileSize } from './format';
import { cleanFile } from './metadata';
import './files.css';

let nextId = 0;

function readFile(file: File, onProgress: (fraction: number) => void): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(file);
  });
}

/**
 * File input with the chosen files, each read into memory with a progress bar (the form waits
 * while one is loading). Files over 25 MB are refused with the spec's message next to the input.
 * With `cleanMetadata` (the discloser's forms), images lose their metadata as they are read, and the list says
 * what was removed, or what a PDF or Office file can still reveal.
 */
export function FilePicker({
  files,
  onChange,
  label,
  disabled,
  cleanMetadata,
}: {
  files: PendingFile[];
  onChange: (update: (files: PendingFile[]) => PendingFile[]) => void;
  label: string;
  disabled?: boolean;
  cleanMetadata?: boolean;
}) {
  const { t, i18n } = useTranslation('common');
  const id = useId();
  const [tooLarge, setTooLarge] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  function add(list: FileList | null) {
    const chosen = Array.from(list ?? []);
    setTooLarge(chosen.some(isTooLarge));
    for (const file of chosen.filter((candidate) => !isTooLarge(candidate))) {
      const entry: PendingFile = {
        id: `file-${nextId++}`,
        name: file.name,
        size: file.size,
        type: file.type,
        progress: 0,
      };
      onChange((current) => [...current, entry]);
      const update = (change: Partial<PendingFile>) =>
        onChange((current) => current.map((item) => (item.id === entry.id ? { ...item, ...change } : item)));
      readFile(file, (progress) => update({ progress }))
        .then((read) => {
          if (!cleanMetadata) return update({ bytes: read, progress: 0 });
          const { bytes, removed, warning } = cleanFile({ name: file.name, type: file.type, bytes: read });
          // The size sent is the cleaned file's: the file service checks it against the ciphertext.
          update({ bytes, size: bytes.length, removed, warning, progress: 0 });
        })
        .catch(() => onChange((current) => current.filter((item) => item.id !== entry.id)));
    }
    // The same file can be chosen again after removing it.
    if (input.current) input.current.value = '';
  }

  return (
    <div className={tooLarge ? 'wh-field wh-field--invalid' : 'wh-field'}>
      <label className="wh-field__label" htmlFor={id}>
        {label}
      </label>
      <input
        ref={input}
        id={id}
        type="file"
        name="files"
        multiple
        className="wh-input"
        disabled={disabled}
        aria-invalid={tooLarge || undefined}
        aria-describedby={tooLarge ? `${id}-error` : undefined}
        onChange={(event) => add(event.currentTarget.files)}
      />
      {tooLarge && (
        <p className="wh-field__error" id={`${id}-error`}>
          {t('files.tooLarge')}
        </p>
      )}
      {files.length > 0 && (
        <ul className="wh-files">
          {files.map((file) => (
            <li key={file.id}>
              <span className="wh-files__name">{file.name}</span>
              <span className="wh-files__size">{formatFileSize(file.size, i18n.language)}</span>
              {(!isLoaded(file) || file.progress > 0) && (
                <progress max={1} value={file.progress} aria-label={t('files.progress', { name: file.name })} />
              )}
              {file.removed && file.removed.length > 0 && (
                <p className="wh-files__note">
                  {t('files.metadata.removed', {
                    list: file.removed.map((kind) => t(`files.metadata.kinds.${kind}`)).join(', '),
                  })}
                </p>
              )}
              {file.warning && (
                <p className="wh-files__note wh-files__warning">{t(`files.metadata.warnings.${file.warning}`)}</p>
              )}
              {file.retryInSeconds !== undefined && (
                <span role="status" className="wh-files__retry">
                  {t('files.retrying', { seconds: file.retryInSeconds })}
                </span>
              )}
              <button
                type="button"
                className="wh-button wh-button--secondary wh-files__remove"
                disabled={disabled}
                onClick={() => onChange((current) => current.filter((item) => item.id !== file.id))}
              >
                {t('files.remove')}
                <span className="wh-visually-hidden"> {file.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
