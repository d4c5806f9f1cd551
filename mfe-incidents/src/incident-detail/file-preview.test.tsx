import { Blob as NodeBlob } from 'node:buffer';
import { useState } from 'react';
import type { i18n } from 'i18next';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { DecryptedFile } from '@whistle/ui/report';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../test/render';
import { FilePreview, previewKind } from './file-preview.component';

/* A case's decrypted file previewed in the page: from an object URL revoked on close, text never as HTML. */

let english: i18n;
const created: Blob[] = [];
const revoked: string[] = [];
const realCreate = URL.createObjectURL;
const realRevoke = URL.revokeObjectURL;

beforeAll(async () => {
  english = await initTestI18n<i18n>('en');
  // jsdom has no object URLs: these record what the preview makes and gives back.
  URL.createObjectURL = (blob: Blob) => `blob:test/${created.push(blob)}`;
  URL.revokeObjectURL = (url: string) => void revoked.push(url);
});
afterAll(() => {
  URL.createObjectURL = realCreate;
  URL.revokeObjectURL = realRevoke;
});
beforeEach(() => {
  created.length = 0;
  revoked.length = 0;
});

// Node's Blob, as jsdom's has no text() (every browser's has).
const decrypted = (fileName: string, content: string): DecryptedFile => ({
  blob: new NodeBlob([content]) as Blob,
  fileName,
});

/** The type each test file was sent with (its `mime_type`). */
const TYPES: Record<string, string> = {
  'receipt.PNG': 'image/png',
  'memo.mp3': 'audio/mpeg',
  'notes.txt': 'text/plain',
  'contract.zip': 'application/zip',
  'pending.png': 'image/png',
};

/** The preview as the case page opens it: it goes away when closed. */
function Harness({
  file,
  onDownload = () => {},
}: {
  file?: DecryptedFile;
  onDownload?: (file: DecryptedFile) => void;
}) {
  const [open, setOpen] = useState(true);
  return open ? (
    <FilePreview
      fileName={file?.fileName ?? 'pending.png'}
      mimeType={TYPES[file?.fileName ?? 'pending.png']!}
      file={file}
      failed={false}
      onDownload={onDownload}
      onClose={() => setOpen(false)}
    />
  ) : (
    <p>closed</p>
  );
}

describe('FilePreview', () => {
  it('shows an image from an object URL, in a dialog labelled by the file name, revoked on Escape', async () => {
    renderWithI18n(<Harness file={decrypted('receipt.PNG', 'png bytes')} />, english);
    const dialog = screen.getByRole('dialog', { name: 'receipt.PNG' });
    const image = await within(dialog).findByRole('img', { name: 'receipt.PNG' });
    expect(image).toHaveAttribute('src', 'blob:test/1');
    expect(created[0].type).toBe('image/png');
    expect(within(dialog).getByRole('button', { name: 'Download' })).toHaveFocus();
    expect(revoked).toEqual([]);

    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.getByText('closed')).toBeInTheDocument();
    expect(revoked).toEqual(['blob:test/1']);
  });

  it('revokes the object URL when closed with the Close button', async () => {
    renderWithI18n(<Harness file={decrypted('memo.mp3', 'mp3 bytes')} />, english);
    const dialog = screen.getByRole('dialog', { name: 'memo.mp3' });
    await waitFor(() => expect(dialog.querySelector('audio')).toHaveAttribute('src', 'blob:test/1'));
    expect(dialog.querySelector('audio')).toHaveAttribute('controls');
    expect(created[0].type).toBe('audio/mpeg');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(revoked).toEqual(['blob:test/1']);
  });

  it('shows text as text, never as HTML', async () => {
    const markup = '<img src=x onerror="alert(1)"><b>Paid twice</b>';
    renderWithI18n(<Harness file={decrypted('notes.txt', markup)} />, english);
    const dialog = screen.getByRole('dialog', { name: 'notes.txt' });
    await waitFor(() => expect(dialog.querySelector('pre')).toHaveTextContent(markup, { normalizeWhitespace: false }));
    expect(dialog.querySelector('pre img, pre b')).toBeNull();
    expect(created).toEqual([]);
  });

  it('offers the download of a type it cannot show, without making an object URL', () => {
    const onDownload = jest.fn();
    const zip = decrypted('contract.zip', 'PK');
    renderWithI18n(<Harness file={zip} onDownload={onDownload} />, english);
    const dialog = screen.getByRole('dialog', { name: 'contract.zip' });
    expect(within(dialog).getByText('Preview not available for this file type')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Download' }));
    expect(onDownload).toHaveBeenCalledWith(zip);
    expect(created).toEqual([]);
  });

  it('waits for the decryption before it offers the download', () => {
    renderWithI18n(<Harness />, english);
    const dialog = screen.getByRole('dialog', { name: 'pending.png' });
    expect(within(dialog).getByRole('status')).toHaveTextContent('Decrypting the file…');
    expect(within(dialog).getByRole('button', { name: 'Download' })).toBeDisabled();
  });

  it('says when the file cannot be opened', () => {
    renderWithI18n(
      <FilePreview
        fileName="a.png"
        mimeType="image/png"
        file={undefined}
        failed
        onDownload={() => {}}
        onClose={() => {}}
      />,
      english,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('The file could not be opened.');
  });
});

describe('previewKind', () => {
  it.each([
    ['image/JPEG', 'image'],
    ['audio/mp4', 'audio'],
    ['text/csv', 'text'],
    ['application/json', 'text'],
    ['application/PDF', 'pdf'],
    ['application/x-pdf', 'none'],
    ['image/svg+xml', 'none'],
    ['text/html', 'text'],
    ['application/octet-stream', 'none'],
  ])('%s is %s', (type, kind) => expect(previewKind(type)).toBe(kind));
});
