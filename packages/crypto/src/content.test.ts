import { createCompanyCredentials } from './legacy-company-key';
import { decryptField, decryptFields, decryptFile, encryptField, encryptFields, encryptFile } from './content';
import { CryptoFormatError, DecryptionError } from './errors';
import { createIncidentCredentials, type IncidentHandle } from './incident';
import { isVersionedString, tamperedVariants } from './test-support';

async function newIncident(): Promise<IncidentHandle> {
  const company = await createCompanyCredentials();
  return (await createIncidentCredentials(company.credential.public_key)).incident;
}

describe('fields and messages', () => {
  it('round-trip text of any size, empty and non-ASCII included', async () => {
    const incident = await newIncident();
    for (const text of ['', 'x', 'Fraude au service achats — été 2025 🚨', 'a'.repeat(100_000)]) {
      const ciphertext = await encryptField(incident.publicKey, text);
      expect(isVersionedString(ciphertext, 200_000)).toBe(true);
      expect(ciphertext).not.toContain('service');
      expect(await decryptField(incident, ciphertext)).toBe(text);
    }
  });

  it('encrypt a form as [{ name, value }] and decrypt it back in order', async () => {
    const incident = await newIncident();
    const form = { description: 'What happened', full_name: 'Jane Doe', can_contact: 'yes' };
    const encrypted = await encryptFields(incident.publicKey, form);
    expect(encrypted.map((field) => field.name)).toEqual(['description', 'full_name', 'can_contact']);
    expect(encrypted.every((field) => isVersionedString(field.value))).toBe(true);
    expect(await decryptFields(incident, encrypted)).toEqual(
      Object.entries(form).map(([name, value]) => ({ name, value })),
    );
  });

  it('refuse another incident key and every altered part', async () => {
    const [incident, other] = await Promise.all([newIncident(), newIncident()]);
    const ciphertext = await encryptField(incident.publicKey, 'secret');
    await expect(decryptField(other, ciphertext)).rejects.toThrow(DecryptionError);
    for (const tampered of tamperedVariants(ciphertext)) {
      await expect(decryptField(incident, tampered.value)).rejects.toThrow(DecryptionError);
    }
    await expect(decryptField(incident, ciphertext.replace(/^v1/, 'v3'))).rejects.toThrow(CryptoFormatError);
  });
});

describe('files', () => {
  const content = globalThis.crypto.getRandomValues(new Uint8Array(10_000));

  it('round-trip content and name; the ciphertext is version byte, iv, data and tag', async () => {
    const incident = await newIncident();
    const file = await encryptFile(incident.publicKey, content, { fileName: 'relevé.pdf' });
    expect(file.ciphertext).toHaveLength(1 + 12 + content.length + 16);
    expect(file.ciphertext[0]).toBe(1);
    expect(isVersionedString(file.encrypted_key)).toBe(true);
    expect(isVersionedString(file.encrypted_file_name)).toBe(true);
    const opened = await decryptFile(incident, file);
    expect(opened.fileName).toBe('relevé.pdf');
    expect(Buffer.from(opened.content).equals(Buffer.from(content))).toBe(true);
    expect(await decryptField(incident, file.encrypted_file_name)).toBe('relevé.pdf');
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
    otherVersion[0] = 2;
    await expect(decryptFile(incident, { ...file, ciphertext: otherVersion })).rejects.toThrow(CryptoFormatError);
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
});
