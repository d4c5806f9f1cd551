import { encryptContent } from '@whistle/crypto';
import { encryptedReport, testCompany, useNodeWebCrypto, type TestCompany } from '../../test/staff-fixtures';
import { searchWords } from './case-search';
import { searchCase } from './search-case';

let company: TestCompany;
beforeAll(async () => {
  useNodeWebCrypto();
  company = await testCompany();
});

const uuid = '6f1c3f44-3b4e-4c55-8f5c-0c7f4c1b2a10';

describe('searching one case of the corpus', () => {
  it('when a word is only in the decrypted description, then the case is found, with a snippet of it', async () => {
    const report = await encryptedReport(company, { description: 'Pallets of copper left the Quarry at night' });
    const row = { uuid, display_report_number: 7, keys: report.keys, fields: report.fields };
    // The word is not in anything the server holds.
    expect(JSON.stringify(row).toLowerCase()).not.toContain('quarry');
    expect(await searchCase(row, searchWords('quarry COPPER'), company.privateKey)).toEqual({
      hit: { uuid, display_report_number: 7, snippet: 'Pallets of copper left the Quarry at night' },
      readable: true,
    });
    expect(await searchCase(row, searchWords('quarry gold'), company.privateKey)).toEqual({
      hit: null,
      readable: true,
    });
  });

  it("when the words are only the reporter's page language, then the case is not found", async () => {
    const report = await encryptedReport(company, { description: 'Kupfer verschwand nachts', language: 'de' });
    const row = { uuid, display_report_number: 8, keys: report.keys, fields: report.fields };
    expect(await searchCase(row, searchWords('de'), company.privateKey)).toEqual({ hit: null, readable: true });
    expect((await searchCase(row, searchWords('kupfer'), company.privateKey)).hit?.display_report_number).toBe(8);
  });

  it('when a field was moved from another name, or the case is not the company’s, then it is left out and counted, not thrown', async () => {
    const report = await encryptedReport(company, { description: 'Copper', full_name: 'Quarry Smith' });
    // The name's ciphertext shown as the description: bound to its own name, it no longer opens there.
    const swapped = [
      { ...report.fields[0]!, value: report.fields[1]!.value },
      { ...report.fields[1]!, value: report.fields[0]!.value },
    ];
    const row = { uuid, display_report_number: 8, keys: report.keys, fields: swapped };
    expect(await searchCase(row, searchWords('quarry'), company.privateKey)).toEqual({ hit: null, readable: false });

    const other = await testCompany();
    const theirs = await encryptedReport(other, { description: 'Quarry' });
    expect(
      await searchCase(
        { uuid, display_report_number: 9, keys: theirs.keys, fields: theirs.fields },
        searchWords('quarry'),
        company.privateKey,
      ),
    ).toEqual({ hit: null, readable: false });
    // Text bound as a note, not a field: not read as one.
    const note = await encryptContent(report.credentials.incident.publicKey, 'Quarry', { kind: 'note' });
    expect(
      await searchCase(
        { ...row, fields: [{ name: 'description', value: note }] },
        searchWords('quarry'),
        company.privateKey,
      ),
    ).toEqual({ hit: null, readable: false });
  });
});
