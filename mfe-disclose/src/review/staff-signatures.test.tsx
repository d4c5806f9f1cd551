import { webcrypto } from 'node:crypto';
import { screen, within } from '@testing-library/react';
import type { i18n } from 'i18next';
import type { IncidentMessage, IncidentStatus } from '@whistle/contracts';
import {
  createCompanyCredentials,
  createIncidentCredentials,
  createPersonKeys,
  endorseTeamKey,
  importPersonKeys,
  signStaffContent,
  type IncidentHandle,
  type PersonKeys,
  type TeamKey,
} from '@whistle/crypto';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { incidentMessage, openReviewPage, type ReviewCompany } from '../../test/review-router';
import { forgetOutcome } from '../session/status-outcome.store';

/*
 * The reporter's page checks each staff message against the case team its report pinned (and the keys endorsed
 * since): docs/security.md, "Signed staff messages".
 */

let handle: IncidentHandle;
let english: i18n;

beforeAll(async () => {
  // jsdom has no WebCrypto: Node's is the browser's API.
  Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
  const company = await createCompanyCredentials();
  handle = (await createIncidentCredentials(company.credential.public_key)).incident;
  english = await initTestI18n<i18n>('en');
});
afterEach(forgetOutcome);

describe('staff messages signed for the reporter (issue #25, item 4)', () => {
  const COMPANY = '0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0f000';
  async function member(keyId: string, role: TeamKey['role']) {
    const { publicKeys, secret } = await createPersonKeys();
    const person = await importPersonKeys(secret, publicKeys);
    return { person, key: { key_id: keyId, signing_public_key: publicKeys.signing_public_key, role } };
  }
  /** A staff message as the sender's browser makes it: encrypted, and signed with `by`'s key when given. */
  async function staffMessage(uuid: string, text: string, by?: { person: PersonKeys; key: TeamKey }, extra = {}) {
    const sent = await incidentMessage(handle, uuid, text, extra);
    if (!by) return sent;
    const parts = await signStaffContent(by.person, {
      incidentPublicKey: handle.publicKey,
      kind: 'message',
      ciphertexts: [sent.content],
    });
    return { ...sent, signature: { ...parts, signer_key_id: by.key.key_id } };
  }
  let admin: Awaited<ReturnType<typeof member>>;
  let handler: Awaited<ReturnType<typeof member>>;
  beforeAll(async () => {
    admin = await member('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0f001', 'ADMIN');
    handler = await member('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0f002', 'HANDLER');
  });
  const openPinned = (messages: IncidentMessage[], company?: ReviewCompany, status: IncidentStatus = 'INVESTIGATION') =>
    openReviewPage({ handle, status, messages, language: english, pinned: [admin.key], company });

  it('when a pinned member signed a reply, then it shows with a quiet mark; unsigned or signed by another key, the warning shows instead of the text', async () => {
    const stranger = await member('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0f009', 'ADMIN');
    openPinned(
      [
        await staffMessage('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e001', 'We are looking into it', admin),
        await staffMessage('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e002', 'Please tell us your name'),
        await staffMessage('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e003', 'Send us your address', stranger),
        await staffMessage('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e004', 'Call this number', undefined, { final: true }),
        await incidentMessage(handle, '0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e005', 'My own words', {
          sender: { name: 'Discloser', source: 'DISCLOSER' },
        }),
      ],
      undefined,
      'CLOSED',
    );
    const thread = await screen.findByRole('region', { name: 'Messages' });
    expect(await within(thread).findByText('We are looking into it')).toBeInTheDocument();
    expect(within(thread).getByText('My own words')).toBeInTheDocument();
    expect(within(thread).getAllByText('Signed by the case team')).toHaveLength(1);
    expect(await within(thread).findAllByText('This message cannot be verified.')).toHaveLength(3);
    const outcome = screen.getByRole('region', { name: 'How your report ended' });
    expect(within(outcome).getByText('This message cannot be verified.')).toBeInTheDocument();
    expect(within(outcome).getByText(/may not come from the case team/)).toBeInTheDocument();
    for (const hidden of ['Please tell us your name', 'Send us your address', 'Call this number'])
      expect(screen.queryByText(hidden)).not.toBeInTheDocument();
  });

  it('when a member the report did not pin replies, then it verifies through a pinned admin’s endorsement', async () => {
    const endorsement = await endorseTeamKey(admin.person, {
      ...handler.key,
      company_id: COMPANY,
      endorser_key_id: admin.key.key_id,
    });
    const reply = await staffMessage('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e001', 'Thank you, we will check', handler);
    openPinned([reply], { company_id: COMPANY, key_endorsements: [endorsement] });
    const thread = await screen.findByRole('region', { name: 'Messages' });
    expect(await within(thread).findByText('Thank you, we will check')).toBeInTheDocument();
    expect(within(thread).getByText('Signed by the case team')).toBeInTheDocument();
  });

  it('when a member the report did not pin replies and nobody endorsed them, then the warning shows', async () => {
    const reply = await staffMessage('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e001', 'Thank you, we will check', handler);
    openPinned([reply], { company_id: COMPANY, key_endorsements: [] });
    const thread = await screen.findByRole('region', { name: 'Messages' });
    expect(await within(thread).findByText('This message cannot be verified.')).toBeInTheDocument();
    expect(screen.queryByText('Thank you, we will check')).not.toBeInTheDocument();
  });

  it('when the report was made before the pinning (v1), then unsigned replies show as before, with no mark and no warning', async () => {
    openReviewPage({
      handle,
      status: 'INVESTIGATION',
      messages: [await staffMessage('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e001', 'An older reply')],
      language: english,
    });
    const thread = await screen.findByRole('region', { name: 'Messages' });
    expect(await within(thread).findByText('An older reply')).toBeInTheDocument();
    expect(screen.queryByText('Signed by the case team')).not.toBeInTheDocument();
    expect(screen.queryByText('This message cannot be verified.')).not.toBeInTheDocument();
  });
});
