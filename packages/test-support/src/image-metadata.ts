import { crc32 } from 'node:zlib';

/**
 * Real image files carrying a discloser's traces, made in tests (issue #26, item 3): an EXIF block with a GPS
 * position, camera make, serial number and author, and the XMP, IPTC, comment and text parts that would name them.
 * Every value holds `marker`, so a test can look for it in what came out.
 */

const ENTRY = 12;

/** Little-endian TIFF: IFD0 (Make, Orientation, Artist, GPS pointer), then a GPS IFD (latitude N 48°51'24"). */
export function exifTiff(marker: string, orientation = 1): Buffer {
  const make = Buffer.from(`Make ${marker}\0`);
  const artist = Buffer.from(`Author ${marker}\0`);
  const ifd0 = 8;
  const ifd0Entries = 4;
  const gpsIfd = ifd0 + 2 + ifd0Entries * ENTRY + 4;
  const gpsEntries = 2;
  const dataAt = gpsIfd + 2 + gpsEntries * ENTRY + 4;
  const makeAt = dataAt;
  const artistAt = makeAt + make.length;
  const latitudeAt = artistAt + artist.length;
  const tiff = Buffer.alloc(latitudeAt + 24);
  tiff.write('II', 0, 'latin1');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(ifd0, 4);
  const entry = (at: number, tag: number, type: number, count: number, value: number) => {
    tiff.writeUInt16LE(tag, at);
    tiff.writeUInt16LE(type, at + 2);
    tiff.writeUInt32LE(count, at + 4);
    if (type === 3 && count === 1) tiff.writeUInt16LE(value, at + 8);
    else tiff.writeUInt32LE(value, at + 8);
  };
  tiff.writeUInt16LE(ifd0Entries, ifd0);
  entry(ifd0 + 2, 0x010f, 2, make.length, makeAt);
  entry(ifd0 + 2 + ENTRY, 0x0112, 3, 1, orientation);
  entry(ifd0 + 2 + 2 * ENTRY, 0x013b, 2, artist.length, artistAt);
  entry(ifd0 + 2 + 3 * ENTRY, 0x8825, 4, 1, gpsIfd);
  tiff.writeUInt16LE(gpsEntries, gpsIfd);
  entry(gpsIfd + 2, 0x0001, 2, 2, 0x4e); // GPSLatitudeRef 'N'
  entry(gpsIfd + 2 + ENTRY, 0x0002, 5, 3, latitudeAt); // GPSLatitude, three rationals
  make.copy(tiff, makeAt);
  artist.copy(tiff, artistAt);
  [48, 1, 51, 1, 24, 1].forEach((value, index) => tiff.writeUInt32LE(value, latitudeAt + index * 4));
  return tiff;
}

const xmp = (marker: string) =>
  `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">` +
  `<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" dc:creator="${marker}"/></rdf:RDF></x:xmpmeta>`;

function jpegSegment(marker: number, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt16BE(0xff00 | marker, 0);
  head.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([head, data]);
}

/** A JPEG with EXIF (GPS, author), XMP, IPTC and a comment after its APP0, and a trailer after its end. */
export function tagJpeg(jpeg: Uint8Array, marker: string, orientation = 1): Buffer {
  const source = Buffer.from(jpeg);
  const app0End = source[3] === 0xe0 ? 4 + source.readUInt16BE(4) : 2;
  return Buffer.concat([
    source.subarray(0, app0End),
    jpegSegment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), exifTiff(marker, orientation)])),
    jpegSegment(0xe1, Buffer.from(`http://ns.adobe.com/xap/1.0/\0${xmp(marker)}`)),
    jpegSegment(0xed, Buffer.from(`Photoshop 3.0\0IPTC by-line ${marker}`)),
    jpegSegment(0xfe, Buffer.from(`Comment ${marker}`)),
    source.subarray(app0End),
    Buffer.from(`trailer ${marker}`),
  ]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A PNG with tEXt (author), iTXt (XMP), zTXt, eXIf (GPS) and tIME chunks after its IHDR. */
export function tagPng(png: Uint8Array, marker: string): Buffer {
  const source = Buffer.from(png);
  const ihdrEnd = 8 + 12 + source.readUInt32BE(8);
  return Buffer.concat([
    source.subarray(0, ihdrEnd),
    pngChunk('tEXt', Buffer.from(`Author\0${marker}`, 'latin1')),
    pngChunk('iTXt', Buffer.from(`XML:com.adobe.xmp\0\0\0\0\0${xmp(marker)}`)),
    pngChunk('zTXt', Buffer.concat([Buffer.from('Comment\0\0', 'latin1'), Buffer.from(marker)])),
    pngChunk('eXIf', exifTiff(marker)),
    pngChunk('tIME', Buffer.from([0x07, 0xea, 3, 1, 12, 0, 0])),
    source.subarray(ihdrEnd),
  ]);
}

function riffChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.write(type, 0, 'latin1');
  head.writeUInt32LE(data.length, 4);
  return Buffer.concat([head, data, Buffer.alloc(data.length % 2)]);
}

/**
 * A WebP with EXIF (GPS) and XMP chunks and the VP8X flags that announce them. A simple WebP (one VP8 or VP8L
 * chunk) gets the VP8X header it needs first; `width`/`height` are the image's.
 */
export function tagWebp(webp: Uint8Array, marker: string, width: number, height: number): Buffer {
  const source = Buffer.from(webp);
  let chunks = source.subarray(12);
  if (chunks.toString('latin1', 0, 4) === 'VP8X') chunks = chunks.subarray(8 + chunks.readUInt32LE(4));
  const vp8x = Buffer.alloc(10);
  vp8x[0] = 0x08 | 0x04;
  vp8x.writeUIntLE(width - 1, 4, 3);
  vp8x.writeUIntLE(height - 1, 7, 3);
  const body = Buffer.concat([
    riffChunk('VP8X', vp8x),
    chunks,
    riffChunk('EXIF', exifTiff(marker)),
    riffChunk('XMP ', Buffer.from(xmp(marker))),
  ]);
  const head = Buffer.alloc(12);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(body.length + 4, 4);
  head.write('WEBP', 8, 'latin1');
  return Buffer.concat([head, body]);
}
