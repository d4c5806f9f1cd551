import { createCipheriv } from 'node:crypto';
import { encryptedFileBytes } from '@whistle/contracts';
import { createCompanyCredentials } from './legacy-company-key';
import {
  decryptContent,
  decryptFile,
  decryptReportFields,
  encryptContent,
  encryptFile,
  encryptReportFields,
  encryptedFileLength,
  paddedFileLength,
  type ContentBinding,
} from './content';
import { utf8Decode, utf8Encode } from './encoding';
import { wrapToPublicKey } from './wrap';
import { CryptoFormatError, DecryptionError } from './errors';
import { createIncidentCredentials, type IncidentHandle } from './incident';
import { isVersionedString, tamperedVariants } from './test-support';

async function newIncident(): Promise<IncidentHandle> {
  const company = await createCompanyCredentials();
  return (await createIncidentCredentials(company.credential.public_key)).incident;
}

/** What the product wrote before binding (v1): still read. */
const legacyV1 = (incidentPublicKey: string, text: string) =>
  wrapToPublicKey(incidentPublicKey, utf8Encode(text), 'content');

const DESCRIPTION: ContentBinding = { kind: 'field', name: 'description' };
const FROM_DISCLOSER: ContentBinding = { kind: 'message', from: 'discloser' };
const FROM_STAFF: ContentBinding = { kind: 'message', from: 'staff' };

describe('fields and messages', () => {
  it('round-trip text of any size, empty and non-ASCII included, as v2', async () => {
    const incident = await newIncident();
    for (const text of ['', 'x', 'Fraude au service achats — été 2025 🚨', 'a'.repeat(100_000)]) {
      const ciphertext = await encryptContent(incident.publicKey, text, DESCRIPTION);
      expect(ciphertext.startsWith('v2.')).toBe(true);
      expect(isVersionedString(ciphertext, 200_000)).toBe(true);
      expect(ciphertext).not.toContain('service');
      expect(await decryptContent(incident, ciphertext, DESCRIPTION)).toBe(text);
    }
  });

  it('encrypt a form as [{ name, value }], each bound to its name, and decrypt it back in order', async () => {
    const incident = await newIncident();
    const form = { description: 'What happened', full_name: 'Jane Doe', can_contact: 'yes' };
    const encrypted = await encryptReportFields(incident.publicKey, form);
    expect(encrypted.map((field) => field.name)).toEqual(['description', 'full_name', 'can_contact']);
    expect(encrypted.every((field) => isVersionedString(field.value) && field.value.startsWith('v2.'))).toBe(true);
    expect(await decryptReportFields(incident, encrypted)).toEqual(
      Object.entries(form).map(([name, value]) => ({ name, value })),
    );
  });

  it('refuse another incident key and every altered part', async () => {
    const [incident, other] = await Promise.all([newIncident(), newIncident()]);
    const ciphertext = await encryptContent(incident.publicKey, 'secret', FROM_DISCLOSER);
    await expect(decryptContent(other, ciphertext, FROM_DISCLOSER)).rejects.toThrow(DecryptionError);
    for (const tampered of tamperedVariants(ciphertext)) {
      await expect(decryptContent(incident, tampered.value, FROM_DISCLOSER)).rejects.toThrow(DecryptionError);
    }
    await expect(decryptContent(incident, ciphertext.replace(/^v2/, 'v3'), FROM_DISCLOSER)).rejects.toThrow(
      CryptoFormatError,
    );
    await expect(decryptContent(incident, 'not encrypted', FROM_DISCLOSER)).rejects.toThrow(CryptoFormatError);
  });
});

describe('files', () => {
  const content = globalThis.crypto.getRandomValues(new Uint8Array(10_000));

  it('round-trip content and name; the ciphertext is version byte, iv, padded data and tag', async () => {
    const incident = await newIncident();
    const file = await encryptFile(incident.publicKey, content, { fileName: 'relevé.pdf' });
    // 4 + 10,000 bytes padded to a multiple of 512 (Padmé): 10,240.
    expect(file.ciphertext).toHaveLength(1 + 12 + 10_240 + 16);
    expect(encryptedFileLength(content.length)).toBe(file.ciphertext.length);
    expect(file.ciphertext[0]).toBe(2);
    expect(isVersionedString(file.encrypted_key)).toBe(true);
    expect(isVersionedString(file.encrypted_file_name)).toBe(true);
    const opened = await decryptFile(incident, file);
    expect(opened.fileName).toBe('relevé.pdf');
    expect(Buffer.from(opened.content).equals(Buffer.from(content))).toBe(true);
    expect(file.encrypted_key.startsWith('v2.')).toBe(true);
    expect(file.encrypted_file_name.startsWith('v2.')).toBe(true);
    expect(await decryptContent(incident, file.encrypted_file_name, { kind: 'file-name' })).toBe('relevé.pdf');
  });

  it('accept an ArrayBuffer, leave the input untouched and use a fresh key per file', async () => {
    const incident = await newIncident();
    const copy = content.slice();
    const [a, b] = await Promise.all([
      encryptFile(incident.publicKey, copy.buffer, { fileName: 'a' }),
      encryptFile(incident.publicKey, copy, { fileName: 'a' }),
    ]);
    expect(Buffer.from(copy).equals(Buffer.from(content))).toBe(true);
    expect(Buffer.from(a.ciphertext).equals(Buffer.from(b.ciphertext))).toBe(false);
    expect(
      Buffer.from((await decryptFile(incident, { ...a, ciphertext: a.ciphertext.buffer })).content).equals(
        Buffer.from(content),
      ),
    ).toBe(true);
  });

  it('handle the 25 MB limit in one call', async () => {
    const incident = await newIncident();
    const large = new Uint8Array(25_000_000);
    large[0] = 1;
    large[large.length - 1] = 2;
    const file = await encryptFile(incident.publicKey, large, { fileName: 'video.mp4' });
    const { content: opened } = await decryptFile(incident, file);
    expect(opened.length).toBe(large.length);
    expect([opened[0], opened[opened.length - 1]]).toEqual([1, 2]);
  });

  it('refuse an altered byte anywhere: version, iv, data, tag, wrapped key, name', async () => {
    const incident = await newIncident();
    const file = await encryptFile(incident.publicKey, content, { fileName: 'a.txt' });
    for (const position of [1, 12, 13, 500, file.ciphertext.length - 1]) {
      const ciphertext = file.ciphertext.slice();
      ciphertext[position] ^= 1;
      await expect(decryptFile(incident, { ...file, ciphertext })).rejects.toThrow(DecryptionError);
    }
    for (const t of tamperedVariants(file.encrypted_key)) {
      await expect(decryptFile(incident, { ...file, encrypted_key: t.value })).rejects.toThrow(DecryptionError);
    }
    for (const t of tamperedVariants(file.encrypted_file_name)) {
      await expect(decryptFile(incident, { ...file, encrypted_file_name: t.value })).rejects.toThrow(DecryptionError);
    }
    const otherVersion = file.ciphertext.slice();
    otherVersion[0] = 3;
    await expect(decryptFile(incident, { ...file, ciphertext: otherVersion })).rejects.toThrow(CryptoFormatError);
    // Relabelled as the unpadded format, the version byte (associated data) no longer matches.
    otherVersion[0] = 1;
    await expect(decryptFile(incident, { ...file, ciphertext: otherVersion })).rejects.toThrow(DecryptionError);
    await expect(decryptFile(incident, { ...file, ciphertext: file.ciphertext.subarray(0, 20) })).rejects.toThrow(
      CryptoFormatError,
    );
  });

  it('refuse another incident key and a file key swapped with a field (purpose binding)', async () => {
    const [incident, other] = await Promise.all([newIncident(), newIncident()]);
    const file = await encryptFile(incident.publicKey, content, { fileName: 'a.txt' });
    await expect(decryptFile(other, file)).rejects.toThrow(DecryptionError);
    await expect(decryptFile(incident, { ...file, encrypted_key: file.encrypted_file_name })).rejects.toThrow(
      DecryptionError,
    );
  });

  it('refuse a file of another case, and a message or field given as the file name', async () => {
    const [incident, other] = await Promise.all([newIncident(), newIncident()]);
    const [file, elsewhere] = await Promise.all([
      encryptFile(incident.publicKey, content, { fileName: 'a.txt' }),
      encryptFile(other.publicKey, content, { fileName: 'b.txt' }),
    ]);
    const relabelled = { privateKey: incident.privateKey, publicKey: other.publicKey };
    await expect(decryptFile(relabelled, file)).rejects.toThrow(DecryptionError);
    await expect(
      decryptFile(incident, { ...file, encrypted_file_name: elsewhere.encrypted_file_name }),
    ).rejects.toThrow(DecryptionError);
    for (const binding of [DESCRIPTION, FROM_STAFF, { kind: 'note' } as const]) {
      const text = await encryptContent(incident.publicKey, 'a.txt', binding);
      await expect(decryptFile(incident, { ...file, encrypted_file_name: text })).rejects.toThrow(DecryptionError);
    }
  });
});

describe('file padding (issue #26, item 4)', () => {
  it('Padmé known answers: only the top bits of a length stay, at most 12 % more', () => {
    const answers: [number, number][] = [
      [0, 0],
      [1, 1],
      [2, 2],
      [3, 3],
      [9, 10],
      [100, 104],
      [1000, 1024],
      [10_004, 10_240],
      [1_000_000, 1_015_808],
      [25_000_004, 25_165_824],
    ];
    expect(answers.map(([length]) => [length, paddedFileLength(length)])).toEqual(answers);
    for (let length = 2; length < 300_000; length += 997) {
      const padded = paddedFileLength(length);
      expect(padded).toBeGreaterThanOrEqual(length);
      expect(padded / length).toBeLessThanOrEqual(1.12);
      expect(paddedFileLength(padded)).toBe(padded);
    }
    expect(() => paddedFileLength(-1)).toThrow(RangeError);
    expect(() => paddedFileLength(2 ** 32)).toThrow(RangeError);
  });

  it('files of nearby sizes are stored with the same size; each opens to its own bytes', async () => {
    const incident = await newIncident();
    const [a, b] = await Promise.all([
      encryptFile(incident.publicKey, new Uint8Array(1_000_000).fill(7), { fileName: 'a' }),
      encryptFile(incident.publicKey, new Uint8Array(1_010_000).fill(8), { fileName: 'b' }),
    ]);
    expect(a.ciphertext.length).toBe(b.ciphertext.length);
    // Compared as buffers: jest's toEqual walks a megabyte element by element, for seconds.
    const opens = async (file: typeof a, size: number, byte: number) =>
      Buffer.from((await decryptFile(incident, file)).content).equals(Buffer.alloc(size, byte));
    expect(await opens(a, 1_000_000, 7)).toBe(true);
    expect(await opens(b, 1_010_000, 8)).toBe(true);
    expect(await opens(a, 1_000_000, 8)).toBe(false);
    const empty = await encryptFile(incident.publicKey, new Uint8Array(0), { fileName: 'empty' });
    expect((await decryptFile(incident, empty)).content).toHaveLength(0);
  });

  it('the largest file (25 MB) pads to 25,165,824 bytes: 0.7 % more', () => {
    expect(encryptedFileLength(25_000_000)).toBe(1 + 12 + 25_165_824 + 16);
    expect(encryptedFileLength(25_000_000)).toBe(encryptedFileBytes(25_000_000, 2));
    for (const size of [0, 1, 12_345, 3_000_000, 24_999_999])
      expect(encryptedFileLength(size)).toBe(encryptedFileBytes(size, 2));
  });

  /** Sealed apart with node:crypto (the layout as documented), so the reader is checked against another route. */
  async function sealedWithNode(incident: IncidentHandle, version: number, plaintext: Uint8Array) {
    const fileKey = Uint8Array.from({ length: 32 }, (_, i) => i);
    const iv = Uint8Array.from({ length: 12 }, (_, i) => 0xa0 + i);
    const cipher = createCipheriv('aes-256-gcm', fileKey, iv);
    cipher.setAAD(Uint8Array.of(version));
    const sealed = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
    return {
      ciphertext: Buffer.concat([Uint8Array.of(version), iv, sealed]),
      encrypted_key: await wrapToPublicKey(incident.publicKey, fileKey, 'file-key'),
      encrypted_file_name: await legacyV1(incident.publicKey, 'old.txt'),
    };
  }

  it('reads a file stored before padding (version 1, key and name v1) and a version 2 file sealed by another route', async () => {
    const incident = await newIncident();
    const text = utf8Encode('stored before padding');
    expect(utf8Decode((await decryptFile(incident, await sealedWithNode(incident, 1, text))).content)).toBe(
      'stored before padding',
    );
    const padded = new Uint8Array(32);
    padded.set([0, 0, 0, text.length], 0);
    padded.set(text, 4);
    expect(utf8Decode((await decryptFile(incident, await sealedWithNode(incident, 2, padded))).content)).toBe(
      'stored before padding',
    );
    // A length field that claims more than the plaintext holds is refused, not read past.
    padded.set([0, 0, 0, 200], 0);
    await expect(decryptFile(incident, await sealedWithNode(incident, 2, padded))).rejects.toThrow(DecryptionError);
  });
});
