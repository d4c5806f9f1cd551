import { randomUUID } from 'node:crypto';
import { createCompanyKeyPair } from '@whistle/crypto';
import { companyRepository } from '../../src/data-access/company.repository';
import { companyKeyRepository } from '../../src/data-access/company-key.repository';
import { announcePublicViewChange } from '../../src/domain/company/public-view-announcements';
import { readLogo } from '../../src/domain/customization/logo-image';
import { logoObjectKey } from '../../src/domain/customization/company-customization';
import { sanitizeRichText } from '../../src/domain/customization/rich-text';
import { categoryRepository } from '../../src/data-access/category.repository';
import { locationRepository } from '../../src/data-access/location.repository';
import { authProvider } from './auth-provider';
import { PACT_VERIFICATION_TIMEOUT_MS, verifyProviderPact } from '@whistle/test-support';
import {
  PACT_CATEGORY,
  PACT_COMPANY,
  PACT_LOCATION,
  PACT_SUB_CATEGORY,
} from '../../../../mfe-disclose/test/pact/fixtures';

const provider = authProvider();

/** The company the discloser pact names, with the ids its report form sends. */
async function insertPactCompany(): Promise<string> {
  await provider.testDependencies().deps.db.query('delete from auth.company');
  const company = await createCompanyKeyPair();
  const companyId = randomUUID();
  await provider.testDependencies().deps.db.transaction(async (tx) => {
    await companyRepository.insert(tx, {
      id: companyId,
      urlIdentifier: PACT_COMPANY,
      name: 'Acme Corporation',
      country: 'FR',
      emailDomain: 'acme-disclose.example',
      publicKey: company.public_key,
    });
    // Sealed for a recovery kit nobody keeps: the provider never opens it.
    await companyKeyRepository.insertKey(tx, companyId, {
      version: 1,
      publicKey: company.public_key,
      recoverySealed: 'v2.unused.unused.unused',
    });
    await categoryRepository.insert(tx, {
      id: PACT_CATEGORY,
      companyId,
      parentId: null,
      name: 'Fraud and corruption',
      position: 0,
    });
    await categoryRepository.insert(tx, {
      id: PACT_SUB_CATEGORY,
      companyId,
      parentId: PACT_CATEGORY,
      name: 'Bribery',
      position: 0,
    });
    await locationRepository.insert(tx, { id: PACT_LOCATION, companyId, name: 'Head office', position: 0 });
    // Written behind the service's back, announced as its own writes are, so its cache drops the previous state.
    await announcePublicViewChange(tx, companyId);
  });
  return companyId;
}

/** A 1×1 PNG, as an admin's upload would store it. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** The same company after its admin customised the landing page (through the same checks as the API). */
async function insertCustomisedCompany(): Promise<void> {
  const companyId = await insertPactCompany();
  const db = provider.testDependencies().deps.db;
  const logo = readLogo(PNG_BASE64);
  await provider.objects().put(logoObjectKey(companyId, logo.sha256), logo.bytes, { contentType: logo.contentType });
  await companyRepository.setLogo(db, companyId, logo);
  await companyRepository.setTitleAndDescription(
    db,
    companyId,
    'Tell us, safely',
    sanitizeRichText('<p>Only <strong>our ethics team</strong> reads this.</p>'),
  );
  await companyRepository.setLanguages(db, companyId, ['en', 'de'], 'de');
  await companyRepository.setLandingText(
    db,
    companyId,
    'de',
    'Sagen Sie es uns, sicher',
    sanitizeRichText('<p>Nur <strong>unser Ethikteam</strong> liest dies.</p>'),
  );
  await announcePublicViewChange(db, companyId);
}

test(
  "when the discloser pages' pact is replayed against auth, then every interaction is honoured",
  async () => {
    await verifyProviderPact({
      consumer: 'whistle-mfe-disclose',
      provider: 'whistle-auth',
      baseUrl: provider.baseUrl(),
      stateHandlers: {
        [`a company with url_identifier ${PACT_COMPANY}, a category with a sub-category and a location exists`]:
          insertPactCompany,
        [`a company with url_identifier ${PACT_COMPANY} has a custom title, description and logo, and a German text`]:
          insertCustomisedCompany,
      },
    });
  },
  PACT_VERIFICATION_TIMEOUT_MS,
);
