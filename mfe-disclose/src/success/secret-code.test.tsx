import { fireEvent, screen, within } from '@testing-library/react';
import type { i18n } from 'i18next';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../test/render';
import { SecretCode } from './secret-code.component';

const CODE = '3f9a12bc44d0e1f29a0b:k3m9-p2q8-x7yz-abcd-0123-4567-89vw';

let english: i18n;
let french: i18n;
beforeAll(async () => {
  english = await initTestI18n<i18n>('en');
  french = await initTestI18n<i18n>('fr');
});
afterEach(() => jest.restoreAllMocks());

describe('the secret code on the success page', () => {
  it('when shown, then it is whole in its groups; Copy copies the code itself, not its groups', async () => {
    const writeText = jest.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderWithI18n(<SecretCode code={CODE} />, english);
    const shown = screen.getByRole('group', { name: 'Your secret code' });
    const value = shown.querySelector('.disclose-code__value')!;
    expect(value).toHaveTextContent(CODE);
    expect(value.querySelectorAll('.disclose-code__group')).toHaveLength(12);
    fireEvent.click(within(shown).getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText('Secret code copied')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith(CODE);
  });

  it('when Download as a text file is pressed, then the file holds exactly the code; Print prints the page', async () => {
    const blobs: Blob[] = [];
    URL.createObjectURL = jest.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:code';
    });
    URL.revokeObjectURL = jest.fn();
    const clicked: HTMLAnchorElement[] = [];
    jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    const print = jest.spyOn(window, 'print').mockImplementation(() => undefined);
    renderWithI18n(<SecretCode code={CODE} />, english);
    fireEvent.click(screen.getByRole('button', { name: 'Download as a text file' }));
    expect(clicked.map((link) => link.download)).toEqual(['secret-code.txt']);
    // jsdom's Blob has no text(): read it as a browser would, with a FileReader.
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as string);
      reader.readAsText(blobs[0]);
    });
    expect(text).toBe(CODE);
    expect(blobs[0].type).toBe('text/plain;charset=utf-8');
    fireEvent.click(screen.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalled();
  });

  it('when the page is in French, then the ways of keeping the code are in French', () => {
    renderWithI18n(<SecretCode code={CODE} />, french);
    expect(screen.getByRole('button', { name: 'Télécharger dans un fichier texte' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Imprimer' })).toBeInTheDocument();
  });
});
