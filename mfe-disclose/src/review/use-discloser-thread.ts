import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, getIncidentFile, listIncidentFiles, listIncidentMessages } from '@whistle/api-client';
import { useLoad } from '@whistle/ui';
import type { IncidentMessage } from '@whistle/contracts';
import { messageBinding, openText, type StoredFile, type ThreadMessage } from '@whistle/ui/report';
import type { DiscloserSession } from './discloser-session';

/** Spec §9: the thread is fetched again every 30 seconds. */
export const MESSAGE_POLL_MS = 30_000;

/** The session token lasts 30 minutes: afterwards the secret code has to be entered again. */
export const endedBy = (error: unknown) => error instanceof ApiError && (error.status === 401 || error.status === 403);

/**
 * What is decrypted in the background, by item uuid, each shown as soon as it is ready and decrypted once:
 * the thread fetched again does not decrypt again what is on screen. '' when it does not open as what it is.
 */
function useDecrypted<Item extends { uuid: string }>(
  items: readonly Item[] | undefined,
  decrypt: (item: Item) => Promise<string>,
): ReadonlyMap<string, string> {
  const [done, setDone] = useState<ReadonlyMap<string, string>>(new Map());
  const started = useRef(new Set<string>());
  useEffect(() => {
    for (const item of items ?? []) {
      if (started.current.has(item.uuid)) continue;
      started.current.add(item.uuid);
      void decrypt(item)
        .catch(() => '')
        .then((plain) => setDone((shown) => new Map(shown).set(item.uuid, plain)));
    }
  }, [items, decrypt]);
  return done;
}

/** A file of the incident as the review page shows it: on the report, or with a message. */
export interface DiscloserFile extends StoredFile {
  messageUuid: string | null;
}

/**
 * The incident's messages and files, fetched when the page opens and every 30 seconds (spec §4, §9) until the
 * session ends, decrypted in the background: each text and file name shows as soon as it is ready.
 */
export function useDiscloserThread(session: DiscloserSession, sessionEnded: boolean) {
  const { api, handle, incident } = session;
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

  const texts = useDecrypted(
    data?.messages,
    useCallback(
      // Bound to its sender as the server's row says: a staff message must have been written as one.
      (message: IncidentMessage) => openText(handle, message.content, messageBinding(message.sender.source)),
      [handle],
    ),
  );
  const names = useDecrypted(
    data?.files,
    useCallback(
      async (file: { uuid: string }) =>
        openText(handle, (await getIncidentFile(api, file.uuid)).file_name, { kind: 'file-name' }),
      [api, handle],
    ),
  );

  const messages: ThreadMessage[] | undefined = data?.messages.map((message) => ({
    ...message,
    text: texts.get(message.uuid) ?? null,
  }));
  const files: DiscloserFile[] = (data?.files ?? []).map((file) => ({
    uuid: file.uuid,
    messageUuid: file.incident_message_uuid,
    size: file.file_size,
    name: names.get(file.uuid) ?? null,
  }));
  return { messages, files, loadFailed: error !== undefined && !ended, ended, reload };
}
