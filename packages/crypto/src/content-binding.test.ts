import { createCipheriv, createECDH, hkdfSync } from 'node:crypto';
import {
  fileUploadMetadataSchema,
  incidentUpdateRequestSchema,
  messageCreateRequestSchema,
  noteCreateRequestSchema,
  reportFieldSchema,
} from '@whistle/contracts';
import { createCompanyCredentials } from './legacy-company-key';
import {
  decryptContent,
  decryptReportFields,
  encryptContent,
  encryptFile,
  encryptReportFields,
  type ContentBinding,
} from './content';
import { fromBase64Url, toBase64Url, utf8Encode } from './encoding';
import { DecryptionError } from './errors';
import { createIncidentCredentials, type IncidentHandle } from './incident';
import { wrapToPublicKey } from './wrap';

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

describe('bound content (issue #25, item 3): a ciphertext moved elsewhere does not open', () => {
  it('when a field is swapped for another field, then it is refused', async () => {
    const incident = await newIncident();
    const [description, fullName] = await encryptReportFields(incident.publicKey, {
      description: 'What happened',
      full_name: 'Jane Doe',
    });
    const swapped = [
      { name: 'description', value: fullName!.value },
      { name: 'full_name', value: description!.value },
    ];
    await expect(decryptReportFields(incident, swapped)).rejects.toThrow(DecryptionError);
    await expect(decryptContent(incident, fullName!.value, { kind: 'field', name: 'description' })).rejects.toThrow(
      DecryptionError,
    );
  });

  it('when a text of one case is moved to another case, then it is refused, even with the other case’s key', async () => {
    const [first, second] = await Promise.all([newIncident(), newIncident()]);
    const ciphertext = await encryptContent(first.publicKey, 'Cash in envelopes', DESCRIPTION);
    await expect(decryptContent(second, ciphertext, DESCRIPTION)).rejects.toThrow(DecryptionError);
    // The case is named by its public key in the associated data: the right private key with another public key fails.
    const relabelled = { privateKey: first.privateKey, publicKey: second.publicKey };
    await expect(decryptContent(relabelled, ciphertext, DESCRIPTION)).rejects.toThrow(DecryptionError);
  });

  it('when a private note is presented as a message (or a message as a note), then it is refused', async () => {
    const incident = await newIncident();
    const note = await encryptContent(incident.publicKey, 'The manager is a suspect', { kind: 'note' });
    await expect(decryptContent(incident, note, FROM_STAFF)).rejects.toThrow(DecryptionError);
    await expect(decryptContent(incident, note, FROM_DISCLOSER)).rejects.toThrow(DecryptionError);
    await expect(decryptContent(incident, note, { kind: 'motivation' })).rejects.toThrow(DecryptionError);
    expect(await decryptContent(incident, note, { kind: 'note' })).toBe('The manager is a suspect');
    const message = await encryptContent(incident.publicKey, 'We are on it', FROM_STAFF);
    await expect(decryptContent(incident, message, { kind: 'note' })).rejects.toThrow(DecryptionError);
  });

  it('when the discloser’s own message is shown as the case team’s (or the reverse), then it is refused', async () => {
    const incident = await newIncident();
    const mine = await encryptContent(incident.publicKey, 'What is your name?', FROM_DISCLOSER);
    await expect(decryptContent(incident, mine, FROM_STAFF)).rejects.toThrow(DecryptionError);
    const theirs = await encryptContent(incident.publicKey, 'Thank you', FROM_STAFF);
    await expect(decryptContent(incident, theirs, FROM_DISCLOSER)).rejects.toThrow(DecryptionError);
    expect(await decryptContent(incident, theirs, FROM_STAFF)).toBe('Thank you');
  });

  it('when a field or message is presented as a file name (or the reverse), then it is refused', async () => {
    const incident = await newIncident();
    const name = await encryptContent(incident.publicKey, 'ledger.pdf', { kind: 'file-name' });
    await expect(decryptContent(incident, name, DESCRIPTION)).rejects.toThrow(DecryptionError);
    const field = await encryptContent(incident.publicKey, 'ledger.pdf', DESCRIPTION);
    await expect(decryptContent(incident, field, { kind: 'file-name' })).rejects.toThrow(DecryptionError);
  });

  it('when a binding is not one of the kinds, then nothing is encrypted or decrypted', async () => {
    const incident = await newIncident();
    const odd = [{ kind: 'field', name: '' }, { kind: 'message', from: 'server' }, { kind: 'other' }] as unknown[];
    for (const binding of odd) {
      await expect(encryptContent(incident.publicKey, 'x', binding as ContentBinding)).rejects.toThrow(TypeError);
    }
  });

  it('when content was written before binding (v1), then it is still read, whatever binding the page asks', async () => {
    const incident = await newIncident();
    const old = await legacyV1(incident.publicKey, 'Written in 2025');
    expect(old.startsWith('v1.')).toBe(true);
    expect(await decryptContent(incident, old, DESCRIPTION)).toBe('Written in 2025');
    expect(await decryptContent(incident, old, FROM_STAFF)).toBe('Written in 2025');
    expect(await decryptReportFields(incident, [{ name: 'description', value: old }])).toEqual([
      { name: 'description', value: 'Written in 2025' },
    ]);
    await expect(decryptContent(await newIncident(), old, DESCRIPTION)).rejects.toThrow(DecryptionError);
  });

  it('the associated data is the JSON array [version, incident public key, kind, detail], checked by another route', async () => {
    // Sealed with node:crypto from the documented layout: HKDF-SHA-256(ECDH, salt = ephemeral key,
    // info "whistle/v2/wrap/content"), AES-256-GCM with that array as associated data.
    const incident = await newIncident();
    const ephemeral = createECDH('prime256v1');
    ephemeral.generateKeys();
    const incidentPoint = fromBase64Url(incident.publicKey.slice(3));
    const shared = ephemeral.computeSecret(Buffer.from(incidentPoint));
    const ephemeralPoint = ephemeral.getPublicKey();
    const key = Buffer.from(hkdfSync('sha256', shared, ephemeralPoint, 'whistle/v2/wrap/content', 32));
    const iv = Buffer.alloc(12, 7);
    const seal = (context: string) => {
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context));
      const sealed = Buffer.concat([cipher.update('Sealed apart'), cipher.final(), cipher.getAuthTag()]);
      return ['v2', ephemeralPoint, iv, sealed]
        .map((part) => (typeof part === 'string' ? part : toBase64Url(part)))
        .join('.');
    };
    const context = (...detail: string[]) => JSON.stringify(['v2', incident.publicKey, ...detail]);
    expect(await decryptContent(incident, seal(context('field', 'description')), DESCRIPTION)).toBe('Sealed apart');
    expect(await decryptContent(incident, seal(context('message', 'staff')), FROM_STAFF)).toBe('Sealed apart');
    expect(await decryptContent(incident, seal(context('note')), { kind: 'note' })).toBe('Sealed apart');
    expect(await decryptContent(incident, seal(context('file-name')), { kind: 'file-name' })).toBe('Sealed apart');
    // A separator-joined context that would read the same is not the format.
    await expect(
      decryptContent(incident, seal(`v2\n${incident.publicKey}\nfield\ndescription`), DESCRIPTION),
    ).rejects.toThrow(DecryptionError);
  });
});

describe('v2 content in the payloads (contracts)', () => {
  it('when v2 texts of the largest size a form takes are sent, then every payload schema accepts them', async () => {
    const incident = await newIncident();
    const uuid = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
    // 20,000 characters is the longest input; 4-byte characters are the worst case.
    const longest = '🚨'.repeat(20_000);
    const [field] = await encryptReportFields(incident.publicKey, { description: longest });
    expect(reportFieldSchema.safeParse(field).success).toBe(true);
    const message = await encryptContent(incident.publicKey, longest, FROM_DISCLOSER);
    expect(messageCreateRequestSchema.safeParse({ incident_uuid: uuid, content: message }).success).toBe(true);
    const note = await encryptContent(incident.publicKey, longest, { kind: 'note' });
    expect(noteCreateRequestSchema.safeParse({ incident_uuid: uuid, content: note }).success).toBe(true);
    const closing = {
      status: 'CLOSED',
      outcome: 'substantiated',
      motivation: await encryptContent(incident.publicKey, longest, { kind: 'motivation' }),
      final_message: await encryptContent(incident.publicKey, longest, FROM_STAFF),
    };
    expect(incidentUpdateRequestSchema.safeParse(closing).success).toBe(true);
    // A file name of 255 4-byte characters (beyond any file system's) and its bound key.
    const file = await encryptFile(incident.publicKey, new Uint8Array(1), { fileName: '🚨'.repeat(255) });
    const metadata = {
      incident_uuid: uuid,
      mime_type: 'text/plain',
      file_name: file.encrypted_file_name,
      encrypted_key: file.encrypted_key,
      file_size: 1,
    };
    expect(fileUploadMetadataSchema.safeParse(metadata).success).toBe(true);
  });
});
