import { useState, type FormEvent, type ReactNode } from 'react';
import { Button, TextArea } from '@whistle/ui';
import { FilePicker } from './file-picker.component';
import { sendEncryptedMessage, type MessageChannel } from './send-message';
import type { UploadFailureKey } from './attachment';
import { useAttachments } from './use-attachments';
import { useVoiceRecorder } from './voice/use-voice-recorder';
import { VoiceRecorder } from './voice/voice-recorder.component';

export interface ReplyOptions extends MessageChannel {
  /** The message went out and the form is cleared; `refusedFile` says why a file was left out, if one was. */
  onSent(refusedFile: UploadFailureKey | undefined): Promise<void> | void;
  /** The message could not be sent: its text and files stay in the form. */
  onFailed(error: unknown): void;
  /** A sending starts: what the last one said can go. */
  onStart?(): void;
}

/** A reply being written: its text and files, and its sending (spec §4). */
export function useReply({ onSent, onFailed, onStart, ...channel }: ReplyOptions) {
  const [text, setText] = useState('');
  const attachments = useAttachments();
  // Rendered by the form with `voice` only; without it, it never holds anything.
  const voice = useVoiceRecorder();
  const [sending, setSending] = useState(false);

  async function send(event: FormEvent) {
    event.preventDefault();
    // Spec §4: an empty message does nothing.
    if (!text.trim() || sending) return;
    // A voice recorded but not among the files would be left out without a word: the discloser decides first.
    if (voice.holdBack()) return;
    setSending(true);
    onStart?.();
    try {
      const { refusedFile } = await sendEncryptedMessage(channel, {
        text,
        files: attachments.loaded,
        onProgress: attachments.setProgress,
        onRetry: attachments.setRetrying,
      });
      // Spec §4: then the text and the files are cleared.
      setText('');
      attachments.clear();
      await onSent(refusedFile);
    } catch (error) {
      onFailed(error);
    } finally {
      setSending(false);
    }
  }

  return { text, setText, attachments, voice, sending, send };
}

export interface ReplyWords {
  label: string;
  attach: string;
  send: string;
  /** Spec §4: the button shows 'Loading' while the message goes. */
  sending: string;
}

/** The reply form of a thread: text, files, the side's own fields (`children`), send; then its `notices`. */
export function ReplyForm({
  reply,
  name,
  words,
  children,
  notices,
  cleanMetadata,
  voice,
}: {
  reply: ReturnType<typeof useReply>;
  /** The discloser's side: images lose their metadata before encryption. */
  cleanMetadata?: boolean;
  /** The discloser's side: a voice message, disguised, can be recorded and added to the files. */
  voice?: boolean;
  /** The text box's name. */
  name: string;
  words: ReplyWords;
  children?: ReactNode;
  notices?: ReactNode;
}) {
  const { sending, attachments } = reply;
  return (
    <form onSubmit={(event) => void reply.send(event)} className="wh-reply wh-stack" aria-busy={sending || undefined}>
      <TextArea
        name={name}
        label={words.label}
        rows={4}
        value={reply.text}
        onChange={(event) => reply.setText(event.target.value)}
      />
      <FilePicker
        files={attachments.files}
        onChange={attachments.setFiles}
        label={words.attach}
        disabled={sending}
        cleanMetadata={cleanMetadata}
      />
      {voice && <VoiceRecorder recorder={reply.voice} disabled={sending} onAdd={attachments.add} />}
      {children}
      <div className="wh-actions">
        <Button type="submit" busy={sending} disabled={attachments.loading}>
          {sending ? words.sending : words.send}
        </Button>
      </div>
      {notices}
    </form>
  );
}
