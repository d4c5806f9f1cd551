import { createIncidentCredentials } from './incident';
import { encryptReportFields } from './content';
import { createCompanyKeyPair } from './company-keys';
import { submissionFingerprint, type SubmittedCiphertexts } from './submission-fingerprint';

/**
 * The known answer was computed apart from this code (Python's hashlib and a base32 written there): SHA-256 of
 * "whistle/v1/submission-fingerprint" and each value with a 4-byte big-endian length, the fields sorted by name, the
 * first 160 bits in Crockford base32. Changing the encoding breaks it: every receipt already printed would then
 * stop matching its case page.
 */
const SUBMITTED: SubmittedCiphertexts = {
  credential: {
    public_key: 'v1.BFFcPW6545a5BNP-yn9U_c0MwemXvzddylFa0KbDtANfRTa-OlDzGPv5pUdZAqIhUCvvDVfgjFOyzApW8X2fk1Q',
    aes_encrypted_private_key: 'v1.c2VhbGVkLXByaXZhdGUta2V5',
  },
  aes_salt: 'AAECAwQFBgcICQoLDA0ODw',
  aes_iv: 'oKGio6Slpqeoqaqr',
  // In the order a form might send them: the fingerprint sorts them by name.
  fields: [
    { name: 'full_name', value: 'v1.w6lsw6hu' },
    { name: 'description', value: 'v1.ZGVzY3JpcHRpb24' },
    { name: 'date', value: 'v1.ZGF0ZQ' },
  ],
};
const KNOWN = 'SJJD D2BS B7N2 6XQG XYZZ V5Q8 MWRK SAFA';

describe('the proof of submission', () => {
  it('when the known report is fingerprinted, then the answer is the one computed apart, in 8 groups of 4', async () => {
    expect(await submissionFingerprint(SUBMITTED)).toBe(KNOWN);
  });

  it('when the fields come in another order, then the fingerprint is the same', async () => {
    const reversed = { ...SUBMITTED, fields: [...SUBMITTED.fields].reverse() };
    expect(await submissionFingerprint(reversed)).toBe(KNOWN);
  });

  it('when any one ciphertext changes, is dropped or moves to another field, then the fingerprint changes', async () => {
    const variants: SubmittedCiphertexts[] = [
      { ...SUBMITTED, credential: { ...SUBMITTED.credential, public_key: `${SUBMITTED.credential.public_key}A` } },
      { ...SUBMITTED, credential: { ...SUBMITTED.credential, aes_encrypted_private_key: 'v1.c2VhbGVk' } },
      { ...SUBMITTED, aes_salt: 'AAECAwQFBgcICQoLDA0ODx' },
      { ...SUBMITTED, aes_iv: 'oKGio6Slpqeoqaqs' },
      { ...SUBMITTED, fields: SUBMITTED.fields.slice(1) },
      {
        ...SUBMITTED,
        fields: SUBMITTED.fields.map((field) => (field.name === 'date' ? { ...field, value: 'v1.ZGF0ZR' } : field)),
      },
      // The values of two fields swapped: same bytes overall, other meaning.
      {
        ...SUBMITTED,
        fields: [
          { name: 'full_name', value: 'v1.ZGF0ZQ' },
          { name: 'description', value: 'v1.ZGVzY3JpcHRpb24' },
          { name: 'date', value: 'v1.w6lsw6hu' },
        ],
      },
      // One value's end moved into the next name: only the length prefixes tell these apart.
      {
        ...SUBMITTED,
        fields: [
          { name: 'full_name', value: 'v1.w6lsw6hu' },
          { name: 'description', value: 'v1.ZGVzY3JpcHRpb' },
          { name: '24date', value: 'v1.ZGF0ZQ' },
        ],
      },
    ];
    const fingerprints = await Promise.all(variants.map(submissionFingerprint));
    expect(new Set([KNOWN, ...fingerprints]).size).toBe(variants.length + 1);
  });

  it('when a real report is fingerprinted from its request and from a copy of what is stored, then both agree', async () => {
    const company = await createCompanyKeyPair();
    const credentials = await createIncidentCredentials(company.public_key);
    const fields = await encryptReportFields(credentials.incident.publicKey, {
      description: 'The canteen scales are rigged',
      location_detail: 'Basement',
    });
    const request = { ...credentials.payload, fields };
    // What a staff view holds: the same strings, a JSON round trip away, fields in any order.
    const stored = JSON.parse(JSON.stringify({ ...credentials.payload, fields: [...fields].reverse() }));
    const fingerprint = await submissionFingerprint(request);
    expect(fingerprint).toMatch(/^([0-9A-HJKMNP-TV-Z]{4} ){7}[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(await submissionFingerprint(stored)).toBe(fingerprint);
  });
});
