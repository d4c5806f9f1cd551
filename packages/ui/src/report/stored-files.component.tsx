import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiClient } from '@whistle/api-client';
import type { IncidentHandle, SignedFileParts } from '@whistle/crypto';
import { Button } from '@whistle/ui';
import { saveDecryptedFile, UnverifiedFileError } from './download-file';
import { formatFileSize } from './format';
import './files.css';

/** A file kept with a report or a message. */
export interface StoredFile {
  uuid: string;
  size: number;
  /** The decrypted name: null while it is being decrypted, '' when it cannot be opened as this file's name. */
  name: string | null;
  /** A staff file whose signature the discloser's page checked: its download must be exactly this. */
  signed?: SignedFileParts;
  /** A staff file whose signature does not verify: neither its name nor a download is offered (unsignedFile). */
  unverifiable?: boolean;
}

/** The words of each side (the discloser's and the staff's namespaces differ). */
export interface StoredFileWords {
  /** Shown while a name is being decrypted (a side that decrypts before it shows needs none). */
  decrypting?: string;
  /** "This text cannot be verified": shown instead of a name that does not open as a file name of the case. */
  unverifiable: string;
  download: string;
  downloadFailed: string;
  /**
   * The discloser's page: shown instead of a staff file that cannot be verified, and for a download that is not the
   * file signed (docs/security.md, "Signed staff messages").
   */
  unsignedFile?: { title: string; explanation: string };
  /** The label of the "Preview" button, shown only where `onPreview` is given. */
  preview?: string;
}

function UnsignedFile({ words, role }: { words: StoredFileWords['unsignedFile']; role: 'note' | 'alert' }) {
  return (
    <div className="wh-alert wh-files__unsigned" role={role}>
      <strong>{words?.title}</strong> {words?.explanation}
    </div>
  );
}

/**
 * Files with their human sizes, each downloaded and decrypted in the browser: `api` carries the token that
 * opens the incident's files (the discloser's session, or a staff member's file token). A file is offered once its
 * name is open (on the discloser's page, a staff file's signature is checked with it); one `unverifiable` never is.
 */
export function StoredFiles({
  files,
  api,
  handle,
  words,
  onPreview,
}: {
  files: readonly StoredFile[];
  api: ApiClient;
  handle: IncidentHandle;
  words: StoredFileWords;
  /** Opens a file in the page (the staff's case page); without it, files are only downloaded. */
  onPreview?: (file: StoredFile) => void;
}) {
  const { i18n } = useTranslation();
  const [failed, setFailed] = useState<{ uuid: string; unsigned: boolean } | null>(null);
  if (files.length === 0) return null;
  async function download(file: StoredFile) {
    setFailed(null);
    try {
      await saveDecryptedFile(api, handle, file.uuid, file.signed);
    } catch (error) {
      setFailed({ uuid: file.uuid, unsigned: error instanceof UnverifiedFileError });
    }
  }
  return (
    <ul className="wh-files">
      {files.map((file) => (
        <li key={file.uuid}>
          {file.unverifiable ? (
            <UnsignedFile words={words.unsignedFile} role="note" />
          ) : (
            <span className="wh-files__name">
              {file.name === null ? words.decrypting : file.name || words.unverifiable}
            </span>
          )}
          <span className="wh-files__size">{formatFileSize(file.size, i18n.language)}</span>
          {file.name !== null && !file.unverifiable && (
            <Button variant="secondary" onClick={() => download(file)}>
              {words.download}
              <span className="wh-visually-hidden"> {file.name}</span>
            </Button>
          )}
          {onPreview && file.name && !file.unverifiable && (
            <Button variant="secondary" onClick={() => onPreview(file)}>
              {words.preview}
              <span className="wh-visually-hidden"> {file.name}</span>
            </Button>
          )}
          {failed?.uuid === file.uuid &&
            (failed.unsigned ? (
              <UnsignedFile words={words.unsignedFile} role="alert" />
            ) : (
              <span className="wh-field__error" role="alert">
                {words.downloadFailed}
              </span>
            ))}
        </li>
      ))}
    </ul>
  );
}
