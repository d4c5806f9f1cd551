import { randomUUID } from 'node:crypto';
import { createCompanyKeyPair } from '@whistle/crypto';
import { newPasswordCredentials } from '@whistle/test-support';
import { companyRegistrationRepository } from '../../src/data-access/company-registration.repository';
import { companyRepository } from '../../src/data-access/company.repository';
import { companyKeyRepository } from '../../src/data-access/company-key.repository';
import { hashOfSecret } from '../../src/domain/account/one-time-secret';
import { categoryRepository } from '../../src/data-access/category.repository';
import { locationRepository } from '../../src/data-access/location.repository';
import { authProvider } from './auth-provider';
import { PACT_VERIFICATION_TIMEOUT_MS, verifyProviderPact } from '@whistle/test-support';

const provider = authProvider();

/** A company row as onboarding leaves it, with a fixed url_identifier the consumer's pact names. */
async function insertCompany(urlIdentifier: string, emailDomain: string): Promise<void> {
  const company = await createCompanyKeyPair();
  const companyId = randomUUID();
  await provider.testDependencies().deps.db.transaction(async (tx) => {
    await companyRepository.insert(tx, {
      id: companyId,
      urlIdentifier,
      name: 'Acme Corporation',
      country: 'FR',
      emailDomain,
      publicKey: company.public_key,
    });
    // Sealed for a recovery kit nobody keeps: the provider never opens it.
    await companyKeyRepository.insertKey(tx, companyId, {
      version: 1,
      publicKey: company.public_key,
      recoverySealed: 'v2.unused.unused.unused',
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
  const company = await createCompanyKeyPair();
  const admin = await newPasswordCredentials('a password nobody types');
  await companyRegistrationRepository.insert(provider.testDependencies().deps.db, {
    id: randomUUID(),
    url_identifier: urlIdentifier,
    email: 'ada@acme.example',
    email_domain: 'acme.example',
    full_name: 'Ada Lovelace',
    name: 'Acme Corporation',
    country: 'FR',
    password_hash: '$argon2id$v=19$m=19456,t=2,p=1$unused$unused',
    public_key: company.public_key,
    aes_encrypted_private_key: 'v2.unused.unused.unused',
    kdf: admin.body.kdf,
    kdf_salt: admin.body.kdf_salt,
    admin_keys: admin.body.keys,
    admin_grant: 'v2.unused.unused.unused',
    language: 'en',
    secretHash: hashOfSecret(token),
    ttlMs: 60_000,
  });
}

test(
  'when the shell pact is replayed against auth, then every interaction is honoured',
  async () => {
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
  },
  PACT_VERIFICATION_TIMEOUT_MS,
);
