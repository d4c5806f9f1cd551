import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Choice } from '@whistle/ui';
import type { Attachment } from '../attachment';
import { MAX_RECORDING_SECONDS, formatDuration } from './recording';
import { useVoiceRecorder } from './use-voice-recorder';
import { DISGUISE_STRENGTHS, type DisguiseStrength } from './voice-disguise';
import './voice.css';

/**
 * A voice message for a report or a reply (issue #26): what happens is said before the browser asks for the
 * microphone; while recording, a level meter and a timer (10 minutes at most); then the disguised voice to hear,
 * at the strength chosen, to add to the files being sent (`onAdd`) or record again. Only the disguised WAV leaves
 * this component; it goes up encrypted like any file.
 */
export function VoiceRecorder({ onAdd, disabled }: { onAdd: (file: Attachment) => void; disabled?: boolean }) {
  const { t } = useTranslation('common');
  const id = useId();
  const recorder = useVoiceRecorder();
  const { phase } = recorder;
  const [added, setAdded] = useState(false);
  const strengths = DISGUISE_STRENGTHS.map((value: DisguiseStrength) => ({
    value,
    label: t(`voice.strength.${value}`),
  }));

  return (
    <fieldset className="wh-voice" aria-describedby={`${id}-about`}>
      <legend className="wh-field__label">{t('voice.title')}</legend>
      <p id={`${id}-about`} className="wh-voice__about">
        {t('voice.explanation')}
      </p>
      {(phase.name === 'idle' || phase.name === 'failed') && (
        <div className="wh-actions">
          <Button
            variant="secondary"
            disabled={disabled}
            onClick={() => {
              setAdded(false);
              void recorder.start();
            }}
          >
            {t('voice.record')}
          </Button>
        </div>
      )}
      {phase.name === 'failed' && (
        <p className="wh-alert" role="alert">
          {t(`voice.problems.${phase.problem}`)}
        </p>
      )}
      {phase.name === 'asking' && <p role="status">{t('voice.asking')}</p>}
      {phase.name === 'recording' && (
        <div className="wh-voice__live">
          <meter className="wh-voice__meter" min={0} max={1} value={recorder.level} aria-label={t('voice.level')} />
          <span className="wh-voice__timer" role="timer" aria-label={t('voice.elapsed')}>
            {formatDuration(recorder.elapsed)} / {formatDuration(MAX_RECORDING_SECONDS)}
          </span>
          <Button onClick={recorder.stop}>{t('voice.stop')}</Button>
        </div>
      )}
      {recorder.stoppedAtLimit && phase.name !== 'recording' && <p role="status">{t('voice.limitReached')}</p>}
      {phase.name === 'disguising' && (
        <div role="status" className="wh-voice__live">
          <span>{t('voice.disguising')}</span>
          <progress max={1} value={phase.progress} aria-label={t('voice.disguising')} />
        </div>
      )}
      {(phase.name === 'ready' || phase.name === 'disguising') && (
        <Choice
          name={`${id}-strength`}
          legend={t('voice.strength.legend')}
          options={strengths}
          value={recorder.strength}
          onChange={recorder.choose}
        />
      )}
      {phase.name === 'ready' && (
        <>
          <p>{t('voice.preview')}</p>
          {/* The discloser's own words, disguised: there are no captions to offer. */}
          {/* eslint-disable-next-line jsx-a11y/media-has-caption */}
          <audio className="wh-voice__player" controls src={phase.url} aria-label={t('voice.disguised')} />
          <div className="wh-actions">
            <Button
              disabled={disabled}
              onClick={() => {
                onAdd(phase.file);
                recorder.discard();
                setAdded(true);
              }}
            >
              {t('voice.attach')}
            </Button>
            <Button variant="secondary" disabled={disabled} onClick={() => void recorder.start()}>
              {t('voice.again')}
            </Button>
            <Button variant="secondary" disabled={disabled} onClick={recorder.discard}>
              {t('voice.discard')}
            </Button>
          </div>
        </>
      )}
      {added && phase.name === 'idle' && <p role="status">{t('voice.added')}</p>}
    </fieldset>
  );
}
