import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, getIncidentFile, listIncidentFiles, listIncidentMessages } from '@whistle/api-client';
import { useLoad } from '@whistle/ui';
import type { CompanyPublicView, IncidentFileSummary, IncidentMessage } from '@whistle/contracts';
import { messageBinding, openText, type StoredFile, type ThreadMessage } from '@whistle/ui/report';
import type { DiscloserSession } from './discloser-session';
import { discloserTeam, verificationOf, verifiedStaffFile, type Verification } from './staff-signatures';

/** Spec §9: the thread is fetched again every 30 seconds. */
export const MESSAGE_POLL_MS = 30_000;

/** The session token lasts 30 minutes: afterwards the secret code has to be entered again. */
export const endedBy = (error: unknown) => error instanceof ApiError && (error.status === 401 || error.status === 403);

/**
 * What is decrypted in the background, by item uuid, each shown as soon as it is ready and decrypted once:
 * the thread fetched again does not decrypt again what is on screen. `failed` when it does not open as what it is.
 */
function useDecrypted<Item extends { uuid: string }, Result>(
  items: readonly Item[] | undefined,
  decrypt: (item: Item) => Promise<Result>,
  failed: Result,
): ReadonlyMap<string, Result> {
  const [done, setDone] = useState<ReadonlyMap<string, Result>>(new Map());
  const started = useRef(new Set<string>());
  useEffect(() => {
    for (const item of items ?? []) {
      if (started.current.has(item.uuid)) continue;
      started.current.add(item.uuid);
      void decrypt(item)
        .catch(() => failed)
        .then((plain) => setDone((shown) => new Map(shown).set(item.uuid, plain)));
    }
  }, [items, decrypt, failed]);
  return done;
}

/** A file of the incident as the review page shows it: on the report, or with a message. */
export interface DiscloserFile extends StoredFile {
  messageUuid: string | null;
}

interface OpenedMessage {
  text: string;
  verification?: Verification;
}
const UNOPENED: OpenedMessage = { text: '' };

type OpenedFile = Pick<DiscloserFile, 'name' | 'signed' | 'unverifiable'>;
const UNNAMED: OpenedFile = { name: '' };
const UNSIGNED: OpenedFile = { name: '', unverifiable: true };

/** A file of the case, and whether it came with a message of the case team's (not the discloser's own). */
type ListedFile = IncidentFileSummary & { fromTeam: boolean };

/**
 * The incident's messages and files, fetched when the page opens and every 30 seconds (spec §4, §9) until the
 * session ends, decrypted in the background: each text and file name shows as soon as it is ready. A staff message
 * shows once its signature is checked against the case team (`company`'s endorsements reach the keys the report did
 * not pin), so that a text that cannot be verified is never on screen as the team's; a file of a staff message too.
 */
export function useDiscloserThread(
  session: DiscloserSession,
  sessionEnded: boolean,
  company: Pick<CompanyPublicView, 'company_id' | 'key_endorsements'>,
) {
  const { api, handle, incident, pinnedTeamKeys } = session;
  const team = useMemo(() => discloserTeam(pinnedTeamKeys, company), [pinnedTeamKeys, company]);
  // Every failure is worded by the page: an ended session, or 'will be tried again'.
  const { data, error, reload } = useLoad(
    async (signal) => {
      const [messages, files] = await Promise.all([
        listIncidentMessages(api, incident.uuid, signal),
        listIncidentFiles(api, incident.uuid, signal),
      ]);
      return { messages, files };
    },
    [api, incident.uuid],
    { shows: () => true },
  );
  const ended = sessionEnded || endedBy(error);

  useEffect(() => {
    if (ended) return undefined;
    const timer = setInterval(() => void reload(), MESSAGE_POLL_MS);
    return () => clearInterval(timer);
  }, [reload, ended]);

  const opened = useDecrypted(
    data?.messages,
    useCallback(
      async (message: IncidentMessage): Promise<OpenedMessage> => {
        // Bound to its sender as the server's row says: a staff message must have been written as one.
        const [text, verification] = await Promise.all([
          openText(handle, message.content, messageBinding(message.sender.source)),
          team && team.then((keys) => verificationOf(keys, handle.publicKey, message)),
        ]);
        return { text, verification: verification ?? undefined };
      },
      [handle, team],
    ),
    UNOPENED,
  );
  const listed = useMemo(() => {
    const discloserMessages = new Set(
      data?.messages.filter((message) => message.sender.source === 'DISCLOSER').map((message) => message.uuid),
    );
    return data?.files.map((file): ListedFile => ({
      ...file,
      fromTeam: file.incident_message_uuid !== null && !discloserMessages.has(file.incident_message_uuid),
    }));
  }, [data]);
  // A team file on a report with a pinned list is named and offered only once its signature verifies.
  const openedFiles = useDecrypted(
    listed,
    useCallback(
      async (listedFile: ListedFile): Promise<OpenedFile> => {
        const checked = listedFile.fromTeam ? team : null;
        try {
          const file = await getIncidentFile(api, listedFile.uuid);
          const [name, signed] = await Promise.all([
            openText(handle, file.file_name, { kind: 'file-name' }),
            checked?.then((keys) => verifiedStaffFile(keys, handle.publicKey, file)),
          ]);
          if (signed === null) return UNSIGNED;
          return { name, signed };
        } catch {
          return checked ? UNSIGNED : UNNAMED;
        }
      },
      [api, handle, team],
    ),
    UNNAMED,
  );

  const messages: ThreadMessage[] | undefined = data?.messages.map((message) => ({
    ...message,
    text: opened.get(message.uuid)?.text ?? null,
    verification: opened.get(message.uuid)?.verification,
  }));
  const files: DiscloserFile[] = (data?.files ?? []).map((file) => ({
    uuid: file.uuid,
    messageUuid: file.incident_message_uuid,
    size: file.file_size,
    name: null,
    ...openedFiles.get(file.uuid),
  }));
  return { messages, files, loadFailed: error !== undefined && !ended, ended, reload };
}
