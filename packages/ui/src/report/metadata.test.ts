/**
 * @jest-environment node
 */
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { exifTiff, tagJpeg, tagPng, tagWebp } from '@whistle/test-support/image-metadata';
import { cleanFile, stripJpeg } from './metadata';

const MARKER = 'trace-of-ada';

function pixels(width: number, height: number) {
  const data = Buffer.alloc(width * height * 4);
  for (let index = 0; index < data.length; index++) data[index] = (index * 37) % 251;
  return { width, height, data };
}

const has = (bytes: Uint8Array, part: string | Buffer) => Buffer.from(bytes).includes(part);

describe('cleanFile', () => {
  test('a JPEG loses EXIF (GPS, author, device), XMP, IPTC, comment and trailer; its pixels decode the same', () => {
    const original = jpeg.encode(pixels(64, 48), 90).data;
    const tagged = tagJpeg(original, MARKER);
    expect(has(tagged, MARKER)).toBe(true);

    const cleaned = cleanFile({ name: 'photo.jpg', type: 'image/jpeg', bytes: tagged });

    expect(has(cleaned.bytes, MARKER)).toBe(false);
    expect(has(cleaned.bytes, 'Exif')).toBe(false);
    expect(cleaned.removed.sort()).toEqual(['author', 'comment', 'device', 'exif', 'iptc', 'location', 'other', 'xmp']);
    expect(cleaned.warning).toBeUndefined();
    // Not re-encoded: the same bytes as the untagged file, so the same pixels.
    expect(Buffer.from(cleaned.bytes).equals(Buffer.from(original))).toBe(true);
    expect(jpeg.decode(cleaned.bytes).data).toEqual(jpeg.decode(original).data);
  });

  test('a turned photo keeps its orientation alone, so it does not show sideways', () => {
    const original = jpeg.encode(pixels(16, 8), 80).data;
    const cleaned = stripJpeg(tagJpeg(original, MARKER, 6));
    expect(has(cleaned.bytes, MARKER)).toBe(false);
    const app1 = Buffer.from(cleaned.bytes).indexOf(Buffer.from([0xff, 0xe1]));
    expect(app1).toBeGreaterThan(0);
    // "Exif\0\0", big-endian TIFF, one entry: orientation (0x0112) = 6.
    const exif = Buffer.from(cleaned.bytes).subarray(app1 + 4, app1 + 4 + 30);
    expect(exif.subarray(0, 6).toString('latin1')).toBe('Exif\0\0');
    expect(exif.readUInt16BE(14)).toBe(1);
    expect(exif.readUInt16BE(16)).toBe(0x0112);
    expect(exif.readUInt16BE(24)).toBe(6);
    expect(jpeg.decode(cleaned.bytes).data).toEqual(jpeg.decode(original).data);
  });

  test('a PNG loses its text, XMP, eXIf and tIME chunks and stays valid (CRCs), pixels identical', () => {
    const png = new PNG({ width: 20, height: 10 });
    pixels(20, 10).data.copy(png.data);
    const original = PNG.sync.write(png);
    const tagged = tagPng(original, MARKER);

    const cleaned = cleanFile({ name: 'screen.png', type: 'image/png', bytes: tagged });

    expect(has(cleaned.bytes, MARKER)).toBe(false);
    expect(has(cleaned.bytes, 'tIME')).toBe(false);
    expect(cleaned.removed.sort()).toEqual(['author', 'date', 'device', 'exif', 'location', 'text', 'xmp']);
    expect(Buffer.from(cleaned.bytes).equals(original)).toBe(true);
    expect(PNG.sync.read(Buffer.from(cleaned.bytes), { checkCRC: true }).data).toEqual(PNG.sync.read(original).data);
  });

  test('a WebP loses its EXIF and XMP chunks; the RIFF size and VP8X flags are fixed, the image chunk kept', () => {
    // A lossless image chunk (what a browser's encoder makes) stands for the pixels, copied as it is.
    const vp8l = Buffer.concat([
      Buffer.from('VP8L', 'latin1'),
      Buffer.from([5, 0, 0, 0]),
      Buffer.from([0x2f, 1, 2, 3, 4, 0]),
    ]);
    const simple = Buffer.concat([Buffer.from('RIFF'), Buffer.from([18, 0, 0, 0]), Buffer.from('WEBP'), vp8l]);
    const tagged = tagWebp(simple, MARKER, 2, 2);
    expect(tagged.readUInt8(20) & 0x0c).toBe(0x0c);

    const cleaned = Buffer.from(cleanFile({ name: 'x.webp', type: 'image/webp', bytes: tagged }).bytes);

    expect(cleaned.includes(MARKER)).toBe(false);
    expect(cleaned.readUInt32LE(4)).toBe(cleaned.length - 8);
    expect(cleaned.toString('latin1', 12, 16)).toBe('VP8X');
    expect(cleaned.readUInt8(20) & 0x0c).toBe(0);
    expect(cleaned.subarray(30)).toEqual(vp8l);
  });

  test('PDF and Office files are kept as they are, with the warning the form shows for them', () => {
    const pdf = Buffer.from(`%PDF-1.7\n/Author (${MARKER})`);
    expect(cleanFile({ name: 'a.pdf', type: 'application/pdf', bytes: pdf })).toEqual({
      bytes: pdf,
      removed: [],
      warning: 'pdf',
    });
    const docx = Buffer.from('PK\u0003\u0004');
    expect(
      cleanFile({
        name: 'memo.docx',
        type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        bytes: docx,
      }).warning,
    ).toBe('office');
    expect(cleanFile({ name: 'IMG_1.HEIC', type: 'image/heic', bytes: docx }).warning).toBe('image');
    expect(cleanFile({ name: 'notes.txt', type: 'text/plain', bytes: Buffer.from('hi') })).toEqual({
      bytes: Buffer.from('hi'),
      removed: [],
    });
  });

  test('a broken image is kept unchanged with a warning, nothing lost', () => {
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe1, 0x40, 0x00]), exifTiff(MARKER)]);
    expect(cleanFile({ name: 'x.jpg', type: 'image/jpeg', bytes: broken })).toEqual({
      bytes: broken,
      removed: [],
      warning: 'unreadable',
    });
  });

  test('a 12 MB photo with stuffed bytes and restart markers in its scan loses its tags and keeps the scan whole', () => {
    // Entropy-coded data as a camera writes it: bytes with stuffed 0xFF 0x00 pairs and restart markers in it.
    const big = Buffer.alloc(12_000_000, 0x11);
    for (let at = 0; at + 1 < big.length; at += 150) big.writeUInt16BE(at % 3000 === 0 ? 0xffd0 : 0xff00, at);
    const original = jpeg.encode(pixels(8, 8), 90).data;
    // A large entropy-coded segment (no 0xFF in it) between the scan header and the end marker.
    const sos = Buffer.from(original).lastIndexOf(Buffer.from([0xff, 0xd9]));
    const photo = tagJpeg(
      Buffer.concat([Buffer.from(original).subarray(0, sos), big, Buffer.from([0xff, 0xd9])]),
      MARKER,
    );
    const cleaned = cleanFile({ name: 'big.jpg', type: 'image/jpeg', bytes: photo });
    expect(has(cleaned.bytes, MARKER)).toBe(false);
    expect(has(cleaned.bytes, big)).toBe(true);
  });
});
