import { randomUUID } from 'node:crypto';
import { createCompanyCredentials } from '@whistle/crypto';
import { companyRegistrationRepository } from '../../src/data-access/company-registration.repository';
import { companyRepository } from '../../src/data-access/company.repository';
import { hashOfSecret } from '../../src/domain/account/one-time-secret';
import { categoryRepository } from '../../src/data-access/category.repository';
import { locationRepository } from '../../src/data-access/location.repository';
import { authProvider } from './auth-provider';
import { verifyProviderPact } from '@whistle/test-support';

const provider = authProvider();

/** A company row as onboarding leaves it, with a fixed url_identifier the consumer's pact names. */
async function insertCompany(urlIdentifier: string, emailDomain: string): Promise<void> {
  const { credential } = await createCompanyCredentials();
  const companyId = randomUUID();
  await provider.testDependencies().deps.db.transaction(async (tx) => {
    await companyRepository.insert(tx, {
      id: companyId,
      urlIdentifier,
      name: 'Acme Corporation',
      country: 'FR',
      emailDomain,
      publicKey: credential.public_key,
      aesEncryptedPrivateKey: credential.aes_encrypted_private_key,
      wrappedPassphrase: 'v1.unused.unused',
    });
    const parentId = randomUUID();
    await categoryRepository.insert(tx, {
      id: parentId,
      companyId,
      parentId: null,
      name: 'Fraud and corruption',
      position: 0,
    });
    await categoryRepository.insert(tx, { id: randomUUID(), companyId, parentId, name: 'Bribery', position: 0 });
    await locationRepository.insert(tx, { id: randomUUID(), companyId, name: 'Head office', position: 0 });
  });
}

async function clearCompanies(): Promise<void> {
  await provider.testDependencies().deps.db.query('delete from auth.company');
  await provider.testDependencies().deps.db.query('delete from auth.company_registration');
}

/** A registration as onboarding leaves it, whose mailed link carries `token`. */
async function insertRegistration(token: string, urlIdentifier: string): Promise<void> {
  const { credential } = await createCompanyCredentials();
  await companyRegistrationRepository.insert(provider.testDependencies().deps.db, {
    id: randomUUID(),
    url_identifier: urlIdentifier,
    email: 'ada@acme.example',
    email_domain: 'acme.example',
    full_name: 'Ada Lovelace',
    name: 'Acme Corporation',
    country: 'FR',
    password_hash: '$argon2id$v=19$m=19456,t=2,p=1$unused$unused',
    public_key: credential.public_key,
    aes_encrypted_private_key: credential.aes_encrypted_private_key,
    wrapped_passphrase: 'v1.unused.unused',
    secretHash: hashOfSecret(token),
    ttlMs: 60_000,
  });
}

test('when the shell pact is replayed against auth, then every interaction is honoured', async () => {
  await verifyProviderPact({
    consumer: 'whistle-shell',
    provider: 'whistle-auth',
    baseUrl: provider.baseUrl(),
    stateHandlers: {
      'no company uses the e-mail domain acme.example': clearCompanies,
      'a company uses the e-mail domain taken.example': async () => {
        await clearCompanies();
        await insertCompany('taken-company-aa11bb', 'taken.example');
      },
      'a company registration awaits confirmation with the token pact-confirmation-token': async () => {
        await clearCompanies();
        await insertRegistration('pact-confirmation-token', 'acme-corporation-k7m2qa');
      },
      'a company with url_identifier acme-corporation-k7m2qa exists': async () => {
        await clearCompanies();
        await insertCompany('acme-corporation-k7m2qa', 'acme.example');
      },
    },
  });
});
