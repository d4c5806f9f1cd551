import { Blob as NodeBlob } from 'node:buffer';
import type { i18n } from 'i18next';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../test/render';
import type { PdfDocument } from '../case/pdf-document';
import { FilePreview } from './file-preview.component';

/*
 * The PDF preview as the page drives pdf.js (the drawing itself is pdf.js's, checked in Chromium by the case-bulk
 * journey): what it is handed, which page it draws, its navigation, its failures and its closing.
 */
const pdf = {
  opened: [] as Uint8Array[],
  drawn: [] as number[],
  closed: 0,
  answer: async (): Promise<Pick<PdfDocument, 'pages'> & { fail?: boolean }> => ({ pages: 3 }),
};
jest.mock('../case/pdf-document', () => ({
  openPdf: async (bytes: Uint8Array): Promise<PdfDocument> => {
    pdf.opened.push(bytes);
    const { pages, fail } = await pdf.answer();
    return {
      pages,
      render: async (page: number) => {
        pdf.drawn.push(page);
        if (fail) throw new Error('bad page');
      },
      close: () => void pdf.closed++,
    };
  },
}));

let english: i18n;
beforeAll(async () => {
  english = await initTestI18n<i18n>('en');
});
beforeEach(() => {
  pdf.opened = [];
  pdf.drawn = [];
  pdf.closed = 0;
  pdf.answer = async () => ({ pages: 3 });
});

function preview() {
  const file = { blob: new NodeBlob(['%PDF-1.7 contract']) as Blob, fileName: 'contract.pdf' };
  const { unmount } = renderWithI18n(
    <FilePreview
      fileName="contract.pdf"
      mimeType="application/pdf"
      file={file}
      failed={false}
      onDownload={() => {}}
      onClose={() => {}}
    />,
    english,
  );
  return Object.assign(within(screen.getByRole('dialog', { name: 'contract.pdf' })), { unmount });
}

describe('PDF preview', () => {
  it('when a PDF of three pages opens, then its decrypted bytes go to pdf.js, page 1 is drawn, and the pages can be turned', async () => {
    const dialog = preview();
    const page = await dialog.findByRole('img', { name: 'contract.pdf, page 1 of 3' });
    expect(page.tagName).toBe('CANVAS');
    expect(new TextDecoder().decode(pdf.opened[0])).toBe('%PDF-1.7 contract');
    await waitFor(() => expect(pdf.drawn).toEqual([1]));
    const pages = within(dialog.getByRole('navigation', { name: 'Pages of the PDF' }));
    expect(pages.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    pages.getByRole('button', { name: 'Next page' }).focus();
    fireEvent.click(pages.getByRole('button', { name: 'Next page' }));
    fireEvent.click(pages.getByRole('button', { name: 'Next page' }));
    expect(pages.getByText('Page 3 of 3')).toBeInTheDocument();
    expect(pages.getByRole('button', { name: 'Next page' })).toBeDisabled();
    // The focus stays in the dialog, on the button still of use.
    expect(pages.getByRole('button', { name: 'Previous page' })).toHaveFocus();
    expect(dialog.getByRole('img', { name: 'contract.pdf, page 3 of 3' })).toBeInTheDocument();
    await waitFor(() => expect(pdf.drawn).toEqual([1, 2, 3]));
    fireEvent.click(pages.getByRole('button', { name: 'Previous page' }));
    await waitFor(() => expect(pdf.drawn).toEqual([1, 2, 3, 2]));
  });

  it('when the PDF has one page, then no navigation is offered', async () => {
    pdf.answer = async () => ({ pages: 1 });
    const dialog = preview();
    await dialog.findByRole('img', { name: 'contract.pdf, page 1 of 1' });
    expect(dialog.queryByRole('navigation')).toBeNull();
  });

  it('when pdf.js cannot read the file, then it says so and the download stays offered', async () => {
    pdf.answer = async () => {
      throw new Error('Invalid PDF structure');
    };
    const dialog = preview();
    expect(await dialog.findByRole('alert')).toHaveTextContent(
      'This PDF cannot be shown here: it may be damaged or protected by a password.',
    );
    expect(dialog.queryByRole('img')).toBeNull();
    expect(dialog.getByRole('button', { name: 'Download' })).toBeEnabled();
  });

  it('when a page cannot be drawn, then it says so', async () => {
    pdf.answer = async () => ({ pages: 2, fail: true });
    const dialog = preview();
    expect(await dialog.findByRole('alert')).toHaveTextContent('This PDF cannot be shown here');
  });

  it('when the dialog closes, then the document and its worker are closed', async () => {
    const dialog = preview();
    await dialog.findByRole('img', { name: 'contract.pdf, page 1 of 3' });
    expect(pdf.closed).toBe(0);
    // The case page closes the dialog by unmounting it.
    dialog.unmount();
    expect(pdf.closed).toBe(1);
  });

  it('when the dialog closes before the PDF is open, then the document is closed as soon as it opens', async () => {
    let open: () => void = () => undefined;
    pdf.answer = () => new Promise((resolve) => (open = () => resolve({ pages: 1 })));
    const dialog = preview();
    await waitFor(() => expect(pdf.opened).toHaveLength(1));
    dialog.unmount();
    open();
    await waitFor(() => expect(pdf.closed).toBe(1));
  });
});
