import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { Attachment } from '../attachment';
import {
  MAX_RECORDING_SECONDS,
  canRecord,
  decodeRecording,
  levelOf,
  microphoneProblemOf,
  type MicrophoneProblem,
} from './recording';
import type { DisguiseStrength } from './voice-disguise';
import { disguiseInWorker } from './voice-disguise-job';
import { startVoiceDisguiseWorker } from './voice-disguise-worker';

export type RecorderPhase =
  | { name: 'idle' }
  | { name: 'asking' }
  | { name: 'recording' }
  | { name: 'disguising'; progress: number }
  /** The disguised voice, ready to be heard (`url`) and attached (`file`). */
  | { name: 'ready'; url: string; file: Attachment }
  /** `undisguised`: the worker that disguises could not run; nothing of the recording is offered. */
  | { name: 'failed'; problem: MicrophoneProblem | 'unreadable' | 'undisguised' };

let nextVoice = 1;

/**
 * Named by when it was made, in UTC (the discloser's time zone is not told), so the voice messages of a case are
 * told apart: `voice-message-2026-12-04-18-23-05.wav`.
 */
export const voiceFileName = (made: Date) =>
  `voice-message-${made.toISOString().slice(0, 19).replace(/[T:]/g, '-')}.wav`;

/** What is live while recording: the microphone, the recorder, the meter and the timer. */
interface Live {
  stream: MediaStream;
  recorder: MediaRecorder;
  meter: AudioContext;
  frame: number;
  timer: ReturnType<typeof setInterval>;
}

/** The phases in which the recorder holds a voice that is not among the files: sending now would leave it out. */
const HOLDING: ReadonlySet<RecorderPhase['name']> = new Set(['recording', 'disguising', 'ready']);

/**
 * Records from the microphone, then disguises the recording in a worker; only the disguised WAV is offered to
 * attach. The recording and its decoded samples stay in this hook (for another strength) and are dropped on attach,
 * discard, record again, or when the page goes. The form it is in owns it, to ask before sending (`holdBack`).
 */
export function useVoiceRecorder() {
  const [phase, setPhase] = useState<RecorderPhase>({ name: 'idle' });
  const holding = HOLDING.has(phase.name);
  // Sending was stopped for the voice held: said at the recorder until the discloser adds it or discards it.
  const [heldBack, setHeldBack] = useState(false);
  // The recorder's control that decides (Stop while recording, else Add): the focus goes there, and a form's error
  // summary links to it. A new object each time: the same control is focused again.
  const decisionId = useId();
  const [focusWanted, setFocusWanted] = useState<object>();
  const [strength, setStrength] = useState<DisguiseStrength>('medium');
  // Read when a recording ends: the strength chosen while recording applies to it.
  const strengthNow = useRef(strength);
  const [elapsed, setElapsed] = useState(0);
  const [level, setLevel] = useState(0);
  const [stoppedAtLimit, setStoppedAtLimit] = useState(false);
  const live = useRef<Live>(undefined);
  const original = useRef<Float32Array>(undefined);
  const disguising = useRef<AbortController>(undefined);
  const previewUrl = useRef<string>(undefined);
  // The microphone asked for last: one the browser grants after the page went (or after another ask) is let go.
  const asked = useRef<object>(undefined);

  const releasePreview = useCallback(() => {
    if (previewUrl.current) URL.revokeObjectURL(previewUrl.current);
    previewUrl.current = undefined;
  }, []);

  const endLive = useCallback(() => {
    const current = live.current;
    if (!current) return;
    live.current = undefined;
    cancelAnimationFrame(current.frame);
    clearInterval(current.timer);
    for (const track of current.stream.getTracks()) track.stop();
    void current.meter.close();
    setLevel(0);
  }, []);

  const disguise = useCallback(
    async (samples: Float32Array, chosen: DisguiseStrength) => {
      disguising.current?.abort();
      const controller = new AbortController();
      disguising.current = controller;
      releasePreview();
      setPhase({ name: 'disguising', progress: 0 });
      try {
        const bytes = await disguiseInWorker(startVoiceDisguiseWorker(), samples, chosen, {
          signal: controller.signal,
          onProgress: (progress) => !controller.signal.aborted && setPhase({ name: 'disguising', progress }),
        });
        const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: 'audio/wav' }));
        previewUrl.current = url;
        const file = { id: `voice-${nextVoice++}`, name: voiceFileName(new Date()), type: 'audio/wav', bytes };
        setPhase({ name: 'ready', url, file: { ...file, size: bytes.length } });
      } catch {
        // Stopped for another strength or another recording: that one says what happens next.
        if (!controller.signal.aborted) setPhase({ name: 'failed', problem: 'undisguised' });
      }
    },
    [releasePreview],
  );

  const finish = useCallback(
    async (recording: Blob) => {
      try {
        original.current = await decodeRecording(recording);
      } catch {
        setPhase({ name: 'failed', problem: 'unreadable' });
        return;
      }
      await disguise(original.current, strengthNow.current);
    },
    [disguise],
  );

  const stop = useCallback(() => live.current?.recorder.state === 'recording' && live.current.recorder.stop(), []);

  const start = useCallback(async () => {
    disguising.current?.abort();
    releasePreview();
    original.current = undefined;
    setHeldBack(false);
    setStoppedAtLimit(false);
    setElapsed(0);
    if (!canRecord()) return setPhase({ name: 'failed', problem: 'unsupported' });
    setPhase({ name: 'asking' });
    const ask = {};
    asked.current = ask;
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (error) {
      if (asked.current === ask) setPhase({ name: 'failed', problem: microphoneProblemOf(error) });
      return;
    }
    if (asked.current !== ask) {
      for (const track of stream.getTracks()) track.stop();
      return;
    }
    const recorder = new MediaRecorder(stream);
    const chunks: Blob[] = [];
    recorder.ondataavailable = (event) => event.data.size > 0 && chunks.push(event.data);
    recorder.onstop = () => {
      endLive();
      setPhase({ name: 'disguising', progress: 0 });
      void finish(new Blob(chunks, { type: recorder.mimeType }));
    };
    const meter = new AudioContext();
    const analyser = meter.createAnalyser();
    analyser.fftSize = 1024;
    meter.createMediaStreamSource(stream).connect(analyser);
    const frame = new Float32Array(analyser.fftSize);
    const startedAt = performance.now();
    const current: Live = {
      stream,
      recorder,
      meter,
      frame: 0,
      timer: setInterval(() => {
        const seconds = (performance.now() - startedAt) / 1000;
        setElapsed(Math.min(seconds, MAX_RECORDING_SECONDS));
        if (seconds >= MAX_RECORDING_SECONDS) {
          setStoppedAtLimit(true);
          stop();
        }
      }, 250),
    };
    const draw = () => {
      setLevel(levelOf(analyser, frame));
      current.frame = requestAnimationFrame(draw);
    };
    current.frame = requestAnimationFrame(draw);
    live.current = current;
    recorder.start(1000);
    setPhase({ name: 'recording' });
  }, [endLive, finish, releasePreview, stop]);

  const discard = useCallback(() => {
    disguising.current?.abort();
    endLive();
    releasePreview();
    original.current = undefined;
    setHeldBack(false);
    setStoppedAtLimit(false);
    setPhase({ name: 'idle' });
  }, [endLive, releasePreview]);

  /**
   * Called by the form before it sends: true when a voice is held that is not among the files, and then nothing
   * may be sent; the recorder says so and takes the focus, for the discloser to add it or discard it.
   */
  const holdBack = useCallback(() => {
    if (!holding) return false;
    setHeldBack(true);
    setFocusWanted({});
    return true;
  }, [holding]);

  const choose = useCallback(
    (chosen: DisguiseStrength) => {
      setStrength(chosen);
      strengthNow.current = chosen;
      if (original.current) void disguise(original.current, chosen);
    },
    [disguise],
  );

  // The page goes: the microphone is let go and nothing of the recording is kept.
  useEffect(
    () => () => {
      asked.current = undefined;
      disguising.current?.abort();
      if (live.current) live.current.recorder.onstop = null;
      endLive();
      releasePreview();
      original.current = undefined;
    },
    [endLive, releasePreview],
  );

  return {
    phase,
    strength,
    elapsed,
    level,
    stoppedAtLimit,
    start,
    stop,
    discard,
    choose,
    holding,
    heldBack: heldBack && holding,
    holdBack,
    decisionId,
    focusWanted,
  };
}
