import { webcrypto } from 'node:crypto';
import { fireEvent, screen, within } from '@testing-library/react';
import type { i18n } from 'i18next';
import type { IncidentMessage, IncidentStatus } from '@whistle/contracts';
import {
  createCompanyCredentials,
  createIncidentCredentials,
  encryptContent,
  encryptReportFields,
  type IncidentHandle,
} from '@whistle/crypto';
import { openReportFields } from '@whistle/ui/report';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { installFakeMicrophone, removeFakeMicrophone } from '../../../packages/ui/test/fake-microphone';
import { incidentMessage, openReviewPage, type OpenedReport } from '../../test/review-router';
import { currentSession, forgetOutcome } from '../session/status-outcome.store';

// jsdom has no Worker: the disguise's worker runs in the test's thread.
jest.mock(
  '../../../packages/ui/src/report/voice/voice-disguise-worker',
  () => jest.requireActual('../../../packages/ui/test/fake-microphone').inProcessWorkerModule,
);

/*
 * The reporter's page after the company closed the case: the final message sent with the closing (marked as
 * feedback, directive art. 9(1)(f)) is what tells them how it ended, so it shows with the status.
 */

let handle: IncidentHandle;
let english: i18n;
let french: i18n;

beforeAll(async () => {
  // jsdom has no WebCrypto: Node's is the browser's API.
  Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
  const company = await createCompanyCredentials();
  handle = (await createIncidentCredentials(company.credential.public_key)).incident;
  english = await initTestI18n<i18n>('en');
  french = await initTestI18n<i18n>('fr');
});
afterEach(forgetOutcome);

const message = (uuid: string, text: string, extra: Partial<IncidentMessage> = {}) =>
  incidentMessage(handle, uuid, text, extra);
const openReview = (status: IncidentStatus, messages: IncidentMessage[], language = english, report?: OpenedReport) =>
  openReviewPage({ handle, status, messages, language, report }).router;

describe('the reporter’s page of a closed case', () => {
  it('when the case was closed with a final message, then the reporter reads it with the status, and it is marked as feedback in the thread', async () => {
    openReview('CLOSED', [
      await message('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e001', 'Any news?', {
        sender: { name: 'Discloser', source: 'DISCLOSER' },
      }),
      await message('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e002', 'We are looking into it', { feedback: true }),
      await message('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e003', 'Your concerns were justified; measures were taken.', {
        feedback: true,
        final: true,
        created: '2026-05-04T11:00:00.000Z',
      }),
    ]);
    const outcome = await screen.findByRole('region', { name: 'How your report ended' });
    expect(await within(outcome).findByText('Your concerns were justified; measures were taken.')).toBeInTheDocument();
    expect(within(outcome).queryByText('We are looking into it')).not.toBeInTheDocument();
    expect(screen.getByText('Closed')).toBeInTheDocument();
    const thread = screen.getByRole('region', { name: 'Messages' });
    expect(await within(thread).findByText('We are looking into it')).toBeInTheDocument();
    expect(within(thread).getAllByText('Feedback on your report')).toHaveLength(2);
  });

  it('when the case was closed without a final message (feedback given before), then no earlier reply poses as the ending', async () => {
    openReview('CLOSED', [
      await message('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e002', 'We are looking into it', { feedback: true }),
    ]);
    expect(await screen.findByText('We are looking into it')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'How your report ended' })).not.toBeInTheDocument();
  });

  it('when the case is open, then no final message shows, only the thread', async () => {
    openReview('INVESTIGATION', [
      await message('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e002', 'Interim feedback', { feedback: true }),
    ]);
    const thread = await screen.findByRole('region', { name: 'Messages' });
    expect(await within(thread).findByText('Interim feedback')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'How your report ended' })).not.toBeInTheDocument();
  });

  it('when a French-speaking reporter opens a closed case, then the final message is introduced in French', async () => {
    openReview(
      'CLOSED',
      [await message('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e003', 'Dossier clos, merci.', { feedback: true, final: true })],
      french,
    );
    const outcome = await screen.findByRole('region', { name: 'Issue de votre signalement' });
    expect(await within(outcome).findByText('Dossier clos, merci.')).toBeInTheDocument();
  });
});

describe('texts moved by the server (issue #25, item 3)', () => {
  it('when the reporter’s own message, a note or a swapped field is shown as something else, then the page says it cannot be verified instead of the text', async () => {
    const [description, fullName] = await encryptReportFields(handle.publicKey, {
      description: 'Cash in envelopes',
      full_name: 'Jane Doe',
    });
    // The server swapped the name and the description of the report.
    const opened = await openReportFields(handle, [
      { name: 'description', value: fullName!.value },
      { name: 'full_name', value: description!.value },
    ]);
    const own = await message('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e001', 'What is your name?', {
      sender: { name: 'Discloser', source: 'DISCLOSER' },
    });
    openReview(
      'CLOSED',
      [
        // The reporter's own message, presented as the case team's.
        { ...own, sender: { name: 'Grace Hopper', source: 'STAFF' } },
        // A private note of the case team, presented as a message.
        {
          ...(await message('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e002', '')),
          content: await encryptContent(handle.publicKey, 'The manager is a suspect', { kind: 'note' }),
        },
        await message('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e003', 'We are looking into it'),
        // The final message, replaced by the reporter's own words.
        {
          ...own,
          uuid: '0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e004',
          sender: { name: 'Grace Hopper', source: 'STAFF' },
          final: true,
        },
      ],
      english,
      { fields: opened.fields, unverifiableFields: opened.unverifiable },
    );
    const thread = await screen.findByRole('region', { name: 'Messages' });
    expect(await within(thread).findByText('We are looking into it')).toBeInTheDocument();
    expect(await within(thread).findAllByText('This text cannot be verified.')).toHaveLength(3);
    const outcome = screen.getByRole('region', { name: 'How your report ended' });
    expect(within(outcome).getByText('This text cannot be verified.')).toBeInTheDocument();
    const details = screen.getByRole('region', { name: 'Your report' });
    expect(within(details).getAllByText('This text cannot be verified.')).toHaveLength(2);
    for (const hidden of ['What is your name?', 'The manager is a suspect', 'Cash in envelopes', 'Jane Doe'])
      expect(screen.queryByText(hidden)).not.toBeInTheDocument();
  });
});

describe('the reporter’s clocks', () => {
  beforeEach(() =>
    jest.useFakeTimers({ now: new Date('2026-03-20T09:00:00.000Z'), doNotFake: ['queueMicrotask', 'nextTick'] }),
  );
  afterEach(() => jest.useRealTimers());

  it('when nobody has acknowledged the report after 7 days, then the page says it is late and when feedback is due', async () => {
    openReview('NEW', []);
    const clocks = await screen.findByRole('region', { name: 'What the company must do' });
    const rows = within(clocks)
      .getAllByRole('definition')
      .map((row) => row.textContent);
    // Received 4 March; acknowledgement due 11 March; feedback 3 months after day 7.
    expect(rows).toEqual(['3/4/26', 'Late: it was due by 3/11/26', 'Due by 6/11/26']);
  });

  it('when the report was acknowledged and a staff reply was marked feedback, then both are done, feedback with its date', async () => {
    openReview('INVESTIGATION', [
      await message('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e001', 'Not feedback', {
        sender: { name: 'Discloser', source: 'DISCLOSER' },
        feedback: true,
      }),
      await message('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e002', 'What we did', {
        feedback: true,
        created: '2026-03-15T08:00:00.000Z',
      }),
    ]);
    const clocks = await screen.findByRole('region', { name: 'What the company must do' });
    expect(await within(clocks).findByText('Given on 3/15/26')).toBeInTheDocument();
    expect(within(clocks).getByText('Done')).toBeInTheDocument();
  });

  it('when the report was acknowledged and no feedback came yet, then the page gives the latest date, not a guess', async () => {
    openReview('ACKNOWLEDGED', []);
    const clocks = await screen.findByRole('region', { name: 'What the company must do' });
    expect(
      within(clocks).getByText(
        'Due within 3 months of the confirmation of receipt: by 6/11/26 at the latest if it came within 7 days',
      ),
    ).toBeInTheDocument();
  });
});

describe('leaving the report', () => {
  it('when Leave is pressed, then the opened report is forgotten and the landing page replaces it', async () => {
    const router = openReview('NEW', []);
    fireEvent.click(await screen.findByRole('button', { name: 'Leave' }));
    expect(await screen.findByText('Landing')).toBeInTheDocument();
    expect(currentSession('acme')).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Report 7' })).not.toBeInTheDocument();
    // Back finds no report to show.
    expect(router.state.historyAction).toBe('REPLACE');
  });
});

describe('a voice message in the reply (issue 26)', () => {
  beforeEach(installFakeMicrophone);
  afterEach(removeFakeMicrophone);
  const holdsUnload = () => !window.dispatchEvent(new Event('beforeunload', { cancelable: true }));

  it('when a disguised voice is not among the files of the reply, then closing the tab asks first; added, it does not', async () => {
    openReview('NEW', []);
    const recorder = await screen.findByRole('group', { name: 'Voice message' });
    expect(holdsUnload()).toBe(false);
    fireEvent.click(within(recorder).getByRole('button', { name: 'Record a voice message' }));
    fireEvent.click(await within(recorder).findByRole('button', { name: 'Stop recording' }));
    expect(holdsUnload()).toBe(true);
    fireEvent.click(await within(recorder).findByRole('button', { name: 'Add to the files' }));
    expect(holdsUnload()).toBe(false);
  });
});
