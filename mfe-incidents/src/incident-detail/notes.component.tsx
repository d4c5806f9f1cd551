import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { addCaseNote } from '@whistle/api-client';
import { encryptField } from '@whistle/crypto';
import { Button, formatDateTime, TextArea } from '@whistle/ui';
import { useStaffSession } from '@whistle/ui/staff';
import type { OpenedCase } from './use-case';

/** Private notes of the case team: encrypted to the incident key here, never shown to the reporter. */
export function Notes({ opened, onUpdated }: { opened: OpenedCase; onUpdated: () => Promise<void> }) {
  const { t, i18n } = useTranslation('incidents');
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
        content: await encryptField(opened.handle.publicKey, text),
      });
      setText('');
      await onUpdated();
    } catch {
      setFailed(true);
    } finally {
      setSaving(false);
    }
  }

  return (
    <section className="wh-card wh-stack" aria-labelledby="case-notes">
      <h2 id="case-notes">{t('notes.title')}</h2>
      <p className="case-muted">{t('notes.private')}</p>
      <ul className="wh-stack">
        {opened.notes.map((note) => (
          <li key={note.uuid} className="case-note">
            <p>
              <strong>{note.author.full_name}</strong>{' '}
              <time dateTime={note.created}>{formatDateTime(note.created, i18n.language)}</time>
            </p>
            <p className="case-details">{note.text || t('thread.undecryptable')}</p>
          </li>
        ))}
      </ul>
      {opened.view.permissions.add_note && (
        <form onSubmit={add} className="wh-stack">
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
      )}
    </section>
  );
}
