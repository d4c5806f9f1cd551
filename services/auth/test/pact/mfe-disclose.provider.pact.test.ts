import { randomUUID } from 'node:crypto';
import { createCompanyCredentials } from '@whistle/crypto';
import { createTestDependencies, type TestDependencies } from '@whistle/service-kit/testing';
import { companyRepository } from '../../src/data-access/company.repository';
import { startAuth, type RunningAuth } from '../support';
import { verifyProviderPact } from '@whistle/test-support';
import {
  PACT_CATEGORY, PACT_COMPANY, PACT_LOCATION, PACT_SUB_CATEGORY,
} from '../../../../mfe-disclose/test/pact/fixtures';

let test$: TestDependencies;
let auth: RunningAuth;

beforeAll(async () => {
  test$ = await createTestDependencies('pglite+in-process');
  auth = await startAuth(test$.deps);
});
afterAll(async () => {
  await auth?.close();
  await test$?.dispose();
});

/** The company the discloser pact names, with the ids its report form sends. */
async function insertPactCompany(): Promise<void> {
  await test$.deps.db.query('delete from auth.company');
  const { credential } = await createCompanyCredentials();
  const companyId = randomUUID();
  await test$.deps.db.transaction(async (tx) => {
    await companyRepository.insertCompany(tx, {
      id: companyId, urlIdentifier: PACT_COMPANY, name: 'Acme Corporation', country: 'FR', emailDomain: 'acme-disclose.example',
      publicKey: credential.public_key, aesEncryptedPrivateKey: credential.aes_encrypted_private_key, wrappedPassphrase: 'v1.unused.unused',
    });
    await companyRepository.insertCategory(tx, { id: PACT_CATEGORY, companyId, parentId: null, name: 'Fraud and corruption', position: 0 });
    await companyRepository.insertCategory(tx, { id: PACT_SUB_CATEGORY, companyId, parentId: PACT_CATEGORY, name: 'Bribery', position: 0 });
    await companyRepository.insertLocation(tx, { id: PACT_LOCATION, companyId, name: 'Head office', position: 0 });
  });
}

test('when the discloser pages\' pact is replayed against auth, then every interaction is honoured', async () => {
  await verifyProviderPact({
    consumer: 'whistle-mfe-disclose',
    provider: 'whistle-auth',
    baseUrl: auth.baseUrl,
    stateHandlers: {
      [`a company with url_identifier ${PACT_COMPANY}, a category with a sub-category and a location exists`]: insertPactCompany,
    },
  });
});
