import {
  getCase,
  getIncidentFile,
  isApiError,
  listCaseFiles,
  listCaseMessages,
  listCaseNotes,
  withToken,
  type ApiClient,
  type StaffKeyring,
} from '@whistle/api-client';
import type { IncidentMessage, IncidentNote, IncidentPermissions, IncidentStaffView } from '@whistle/contracts';
import { decryptNote, type IncidentHandle, type TeamOnlyKind } from '@whistle/crypto';
import { useLoad } from '@whistle/ui';
import { messageBinding, openReportFields, openText } from '@whistle/ui/report';
import { useStaffSession } from '@whistle/ui/staff';
import { useCompanyKey, useKeyringState } from '../case/use-company-key';

export interface ShownFile {
  uuid: string;
  messageUuid: string | null;
  size: number;
  /** The type the reporter's browser gave the file when it sent it (the spec's clear `mime_type`). */
  mimeType: string;
  /** The decrypted name; '' when it did not open as a file name of the case. */
  name: string;
}

/** A case as its page shows it: the server's view, and what the browser decrypted of it. */
export interface OpenedCase {
  view: IncidentStaffView;
  handle: IncidentHandle;
  fields: Record<string, string>;
  /** Fields that did not open as themselves: shown as "This text cannot be verified". */
  unverifiableFields: ReadonlySet<string>;
  messages: (IncidentMessage & { text: string })[];
  notes: (IncidentNote & { text: string })[];
  files: ShownFile[];
  /** Decrypted close/reopen motivations, by their ciphertext. */
  motivations: ReadonlyMap<string, string>;
  /** The case's file token as the client for file uploads and downloads. */
  filesApi: ApiClient;
  /**
   * The case opened with another incident public key than the one pinned when this person first opened it in this
   * browser (docs/security.md, "Pinned case keys"): `view.permissions` then allows nothing that writes to that key
   * until they acknowledge the change.
   */
  keyChanged: boolean;
}

/**
 * What may be done to a case whose key changed, until the person trusts the new key: nothing encrypted to it (a reply,
 * a note, a close or reopen motivation) and no assignment, whose grants would hand its passphrase to others, who would
 * then pin the changed key on their first open as if it were the case's.
 */
const whileKeyChanged = (permissions: IncidentPermissions): IncidentPermissions => ({
  ...permissions,
  reply: false,
  add_note: false,
  update_status: false,
  assign: false,
});

export type CaseState =
  | { phase: 'loading' }
  | { phase: 'opened'; opened: OpenedCase }
  | { phase: 'notFound' }
  | { phase: 'locked' }
  | { phase: 'failed' };

/**
 * The case from the server, opened with what the person holds (the shell's keyring: their own grant, checked against
 * the case, or the company key); null when they hold nothing that opens it (the locked state). What the server hands
 * that does not open the case's sealed key is an error of the page, never shown as the case.
 */
async function openWholeCase(api: ApiClient, keyring: StaffKeyring, incidentUuid: string): Promise<OpenedCase | null> {
  const view = await getCase(api, incidentUuid);
  let handle: IncidentHandle;
  try {
    handle = await keyring.openCase(view.keys);
  } catch (error) {
    if (error instanceof Error && error.name === 'NoCaseAccessError') return null;
    throw error;
  }
  // Only a key that opened with what the person holds is pinned: a key set that opens nothing never became the pin.
  const keyChanged = (await keyring.pinCaseKey(view.uuid, handle.publicKey)) === 'changed';
  const filesApi = withToken(api, view.file_token);
  const [messages, notes, files] = await Promise.all([
    listCaseMessages(api, incidentUuid),
    listCaseNotes(api, incidentUuid),
    listCaseFiles(api, incidentUuid),
  ]);
  const motivations = view.status_history.flatMap((change) => (change.motivation ? [change.motivation] : []));
  const openTeamText = (ciphertext: string, kind: TeamOnlyKind) =>
    decryptNote(handle, ciphertext, kind).catch(() => '');
  // Each text opens only as what it is shown as ('' otherwise: "This text cannot be verified", never a page error).
  const [fields, messageTexts, noteTexts, fileNames, motivationTexts] = await Promise.all([
    openReportFields(handle, view.fields),
    Promise.all(messages.map((message) => openText(handle, message.content, messageBinding(message.sender.source)))),
    Promise.all(notes.map((note) => openTeamText(note.content, 'note'))),
    Promise.all(
      files.map((file) =>
        getIncidentFile(filesApi, file.uuid).then(
          (meta) => openText(handle, meta.file_name, { kind: 'file-name' }),
          () => '',
        ),
      ),
    ),
    Promise.all(motivations.map((motivation) => openTeamText(motivation, 'motivation'))),
  ]);
  return {
    view: keyChanged ? { ...view, permissions: whileKeyChanged(view.permissions) } : view,
    handle,
    fields: fields.fields,
    unverifiableFields: fields.unverifiable,
    messages: messages.map((message, index) => ({ ...message, text: messageTexts[index]! })),
    notes: notes.map((note, index) => ({ ...note, text: noteTexts[index]! })),
    files: files.map((file, index) => ({
      uuid: file.uuid,
      messageUuid: file.incident_message_uuid,
      size: file.file_size,
      mimeType: file.mime_type,
      name: fileNames[index]!,
    })),
    motivations: new Map(motivations.map((ciphertext, index) => [ciphertext, motivationTexts[index]!])),
    filesApi,
    keyChanged,
  };
}

/**
 * The case of the page, opened and decrypted in the browser with the person's own grant or the company key (never
 * sent anywhere); `reload` after a change. Without either (keys locked, MFA not done, no grant) it cannot be read.
 */
export function useCase(incidentUuid: string): { state: CaseState; reload(): Promise<void> } {
  const session = useStaffSession();
  const companyPrivateKey = useCompanyKey(session);
  const keyringState = useKeyringState(session);
  const { data, error, reload } = useLoad(
    async () => {
      // On a page load the shell unlocks the keys while this page mounts: wait for the session, which
      // includes the unlocking, before deciding the case is locked (the keyring's change reloads it too).
      await session.staff().catch(() => undefined);
      // Locked keys open nothing: the page asks to unlock them before fetching the case.
      if (session.keyring.state() !== 'unlocked') return null;
      return openWholeCase(session.api, session.keyring, incidentUuid);
    },
    // Read again when the keyring unlocks or a company key is granted: what opens the case may have changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the keyring's state is read through session.keyring
    [session, incidentUuid, companyPrivateKey, keyringState],
    // A case that cannot be opened is a message of the page, whatever the reason.
    { shows: () => true },
  );
  if (error !== undefined)
    return { state: { phase: isApiError(error) && error.status === 404 ? 'notFound' : 'failed' }, reload };
  if (data === undefined) return { state: { phase: 'loading' }, reload };
  return { state: data ? { phase: 'opened', opened: data } : { phase: 'locked' }, reload };
}
