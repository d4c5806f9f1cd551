import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContentBinding } from '@whistle/crypto';
import { formatDateTime } from '../dates';
import './thread.css';

/** Who sent a message: the reporter (DISCLOSER) or a case handler (STAFF). */
export type SenderSource = 'DISCLOSER' | 'STAFF';

/** What a message's ciphertext must be bound to, from the server's message row: who sent it. */
export const messageBinding = (source: SenderSource): ContentBinding => ({
  kind: 'message',
  from: source === 'STAFF' ? 'staff' : 'discloser',
});

/** A message as the thread shows it. */
export interface ThreadMessage {
  uuid: string;
  created: string;
  sender: { name: string; source: SenderSource };
  /** A staff reply marked as the feedback the directive requires. */
  feedback?: boolean;
  /** The message the case was closed with (how it ended, for the reporter). */
  final?: boolean;
  /** The decrypted text: null while it is being decrypted, '' when it cannot be opened as this message. */
  text: string | null;
  /**
   * Whether the case team signed it (a staff message, on the discloser's page: docs/security.md, "Signed staff
   * messages"); absent where nothing is checked. 'unverifiable' shows a warning instead of the text.
   */
  verification?: 'verified' | 'unverifiable';
}

/** The words of each side (the discloser's and the staff's namespaces differ). */
export interface ThreadWords {
  empty: string;
  sentBy(name: string): string;
  receivedFrom(name: string): string;
  /** Shown while a text is being decrypted (a side that decrypts before it shows needs none). */
  decrypting?: string;
  /** "This text cannot be verified": shown instead of a text that does not open where it is shown. */
  unverifiable: string;
  /** The mark of a feedback reply; a side without it shows none. */
  feedback?: string;
  /** The quiet mark of a message the case team signed; a side that checks nothing needs none. */
  verified?: string;
  /** Shown instead of a message whose signature does not verify: what it is, and why it is not shown. */
  unsigned?: { title: string; explanation: string };
}

/**
 * A message's text; for one whose signature does not verify, the warning instead (never its text, which may ask for
 * what the case team never would).
 */
export function MessageText({
  message,
  words,
  className = 'wh-message__text',
}: {
  message: Pick<ThreadMessage, 'text' | 'verification'>;
  words: Pick<ThreadWords, 'decrypting' | 'unverifiable' | 'unsigned'>;
  className?: string;
}) {
  if (message.verification === 'unverifiable' && words.unsigned)
    return (
      <div className="wh-alert wh-message__unsigned" role="note">
        <strong>{words.unsigned.title}</strong> {words.unsigned.explanation}
      </div>
    );
  return <p className={className}>{message.text === null ? words.decrypting : message.text || words.unverifiable}</p>;
}

/**
 * One message: 'Message sent by {name}' when its sender's source is the viewer's own (`ownSource`), otherwise
 * 'Message received from {name}'; its date and time, its text and its files. For the thread below, and for a
 * page that shows messages among other entries (the staff's case timeline), inside an element of its own.
 */
export function MessageEntry({
  message,
  ownSource,
  words,
  files,
}: {
  message: ThreadMessage;
  ownSource: SenderSource;
  words: Omit<ThreadWords, 'empty'>;
  /** The files sent with the message, shown under it. */
  files: ReactNode;
}) {
  const { i18n } = useTranslation();
  const own = message.sender.source === ownSource;
  return (
    <div className={`wh-message wh-message--${own ? 'own' : 'other'}`}>
      <p className="wh-message__meta">
        <strong>{own ? words.sentBy(message.sender.name) : words.receivedFrom(message.sender.name)}</strong>{' '}
        <time dateTime={message.created}>{formatDateTime(message.created, i18n.language)}</time>
        {message.feedback && words.feedback && <span className="wh-message__mark">{words.feedback}</span>}
        {message.verification === 'verified' && words.verified && (
          <span className="wh-message__mark wh-message__mark--verified">{words.verified}</span>
        )}
      </p>
      <MessageText message={message} words={words} />
      {files}
    </div>
  );
}

/** The messages of an incident, for the reporter and for staff alike (spec §2), oldest first. */
export function MessageThread({
  messages,
  ownSource,
  words,
  filesOf,
}: {
  messages: readonly ThreadMessage[];
  ownSource: SenderSource;
  words: ThreadWords;
  /** The files sent with a message, shown under it. */
  filesOf(messageUuid: string): ReactNode;
}) {
  if (messages.length === 0) return <p>{words.empty}</p>;
  return (
    <ol className="wh-thread">
      {messages.map((message) => (
        <li key={message.uuid}>
          <MessageEntry message={message} ownSource={ownSource} words={words} files={filesOf(message.uuid)} />
        </li>
      ))}
    </ol>
  );
}
