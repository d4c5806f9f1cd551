import type { i18n } from 'i18next';
import { screen } from '@testing-library/react';
import { initTestI18n } from '../../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../test/render';
import { FilePicker } from './file-picker.component';
import type { PendingFile } from './attachment';

let english: i18n;
beforeAll(async () => {
  english = await initTestI18n<i18n>('en');
});

const file = (extra: Partial<PendingFile> = {}): PendingFile => ({
  id: 'f1',
  name: 'ledger.pdf',
  size: 1000,
  type: 'application/pdf',
  bytes: new Uint8Array(1000),
  progress: 0,
  ...extra,
});

describe('the file picker while files are sent (issue 30)', () => {
  it('when the server could not take an upload and it is sent again later, then the picker says so and when', () => {
    renderWithI18n(
      <FilePicker files={[file({ retryInSeconds: 5 })]} onChange={() => undefined} label="Files" />,
      english,
    );
    expect(screen.getByRole('status').textContent).toBe('The server is busy: sending again in 5 s…');
  });

  it('when an upload goes normally, then no such notice shows', () => {
    renderWithI18n(<FilePicker files={[file({ progress: 0.5 })]} onChange={() => undefined} label="Files" />, english);
    expect(screen.queryByRole('status')).toBeNull();
  });
});

describe('the file picker on the discloser forms (issue 26: metadata)', () => {
  it('when a cleaned image and a PDF are listed, then what was removed and what the PDF can reveal show', () => {
    renderWithI18n(
      <FilePicker
        files={[
          file({ id: 'p', name: 'photo.jpg', type: 'image/jpeg', removed: ['location', 'device', 'exif'] }),
          file({ warning: 'pdf' }),
        ]}
        onChange={() => undefined}
        label="Files"
        cleanMetadata
      />,
      english,
    );
    expect(
      screen.getByText(
        'Removed before encryption: location (GPS), camera or phone model and serial number, camera data (EXIF).',
      ),
    ).toBeTruthy();
    expect(screen.getByText(/^PDF files can reveal their author/)).toBeTruthy();
  });
});
