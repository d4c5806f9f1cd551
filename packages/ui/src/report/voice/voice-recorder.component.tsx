import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Choice, focusField } from '@whistle/ui';
import type { Attachment } from '../attachment';
import { MAX_RECORDING_SECONDS, formatDuration } from './recording';
import type { useVoiceRecorder } from './use-voice-recorder';
import { DISGUISE_STRENGTHS, type DisguiseStrength } from './voice-disguise';
import './voice.css';

/**
 * A voice message for a report or a reply (issue #26): what happens is said before the browser asks for the
 * microphone; while recording, a level meter and a timer (10 minutes at most); then the disguised voice to hear,
 * at the strength chosen, to add to the files being sent (`onAdd`) or record again. Only the disguised WAV leaves
 * this component; it goes up encrypted like any file. The form owns the `recorder`, so that a voice not among the
 * files stops its sending and is said here (`recorder.holdBack`).
 */
export function VoiceRecorder({
  recorder,
  onAdd,
  disabled,
}: {
  recorder: ReturnType<typeof useVoiceRecorder>;
  onAdd: (file: Attachment) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation('common');
  const id = useId();
  const { phase, heldBack, decisionId, focusWanted } = recorder;
  const [added, setAdded] = useState(false);
  // Sending was stopped: the focus goes to the control that decides, once there is one (not while disguising).
  const focusedFor = useRef<object>(undefined);
  useEffect(() => {
    if (!heldBack || !focusWanted || focusedFor.current === focusWanted) return;
    if (!document.getElementById(decisionId)) return;
    focusedFor.current = focusWanted;
    focusField(decisionId);
  }, [heldBack, focusWanted, decisionId, phase.name]);
  const unsentId = `${id}-unsent`;
  const unsent = heldBack && (
    <p id={unsentId} className="wh-alert">
      {t(phase.name === 'recording' ? 'voice.unsent.recording' : 'voice.unsent.preview')}
    </p>
  );
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
          <Button id={decisionId} aria-describedby={heldBack ? unsentId : undefined} onClick={recorder.stop}>
            {t('voice.stop')}
          </Button>
        </div>
      )}
      {phase.name !== 'ready' && unsent}
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
          {unsent}
          <div className="wh-actions">
            <Button
              id={decisionId}
              aria-describedby={heldBack ? unsentId : undefined}
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
