import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { addCaseNote } from '@whistle/api-client';
import { encryptNote } from '@whistle/crypto';
import { Button, TextArea } from '@whistle/ui';
import { useStaffSession } from '@whistle/ui/staff';
import type { OpenedCase } from './use-case';

/**
 * A private note of the case team (the notes themselves are in the case's timeline): encrypted here under the case's
 * notes key, which the reporter never holds (an old case's, to the incident key), never shown to the reporter.
 */
export function NoteForm({ opened, onUpdated }: { opened: OpenedCase; onUpdated: () => Promise<void> }) {
  const { t } = useTranslation('incidents');
  const { api } = useStaffSession();
  const [text, setText] = useState('');
  const [saving, setSaving] = useState(false);
  const [failed, setFailed] = useState(false);

  async function add(event: FormEvent) {
    event.preventDefault();
    if (!text.trim() || saving) return;
    setSaving(true);
    setFailed(false);
    try {
      await addCaseNote(api, {
        incident_uuid: opened.view.uuid,
        // Bound as a note: the server cannot show it to the discloser as a message.
        content: await encryptNote(opened.handle, text),
      });
      setText('');
      await onUpdated();
    } catch {
      setFailed(true);
    } finally {
      setSaving(false);
    }
  }

  if (!opened.view.permissions.add_note) return null;
  return (
    <form onSubmit={add} className="wh-stack" aria-labelledby="case-note-form">
      <h3 id="case-note-form">{t('notes.title')}</h3>
      <p className="case-muted">{t('notes.private')}</p>
      <TextArea
        name="note"
        label={t('notes.add')}
        rows={3}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      <div className="wh-actions">
        <Button type="submit" variant="secondary" busy={saving}>
          {t('notes.save')}
        </Button>
      </div>
      {failed && (
        <p className="wh-alert" role="alert">
          {t('notes.failed')}
        </p>
      )}
    </form>
  );
}
