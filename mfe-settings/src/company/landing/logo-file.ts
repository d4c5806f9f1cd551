import { LOGO_CONTENT_TYPES, LOGO_MAX_BYTES } from '@whistle/contracts';

export type LogoFileProblem = 'tooLarge' | 'type';

/**
 * A first check in the browser, so a 5 MB photo is refused before it is sent: size and the type the browser
 * reports. The server checks again, by the image's own bytes.
 */
export function logoFileProblem(file: File): LogoFileProblem | undefined {
  if (file.size > LOGO_MAX_BYTES) return 'tooLarge';
  if (!(LOGO_CONTENT_TYPES as readonly string[]).includes(file.type)) return 'type';
  return undefined;
}

/** The file's bytes as base64, read natively and off the main thread (a logo is at most 512 kB). */
export function readAsBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });
}
