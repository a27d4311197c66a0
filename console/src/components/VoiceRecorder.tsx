import { useEffect, useRef, useState } from 'preact/hooks';
import type { Problem } from '../api.ts';
import { captureProblem, closeStream, meterLevel, RecordingSession } from '../media-capture.ts';
import { FileDrop } from './FileDrop.tsx';

const AUDIO_TYPES =
  'audio/wav,audio/x-wav,audio/mpeg,audio/mp4,audio/x-m4a,audio/aac,audio/ogg,audio/opus,audio/webm,audio/flac,.wav,.mp3,.m4a,.ogg,.opus,.webm,.flac';

/**
 * A clip's own voice: recorded here with the microphone (a level meter while it records) or a file dropped or
 * chosen. The recording (or file) is shown as a player to hear before sending; it is uploaded only on sending.
 */
export function VoiceRecorder({
  id,
  label,
  audio,
  onAudio,
  path,
  at,
}: {
  id: string;
  label: string;
  audio: File | null;
  onAudio: (file: File | null) => void;
  path: string;
  at: (path: string) => Problem[];
}) {
  const [recording, setRecording] = useState(false);
  const [problem, setProblem] = useState('');
  const [level, setLevel] = useState(0);
  const [seconds, setSeconds] = useState(0);
  const stream = useRef<MediaStream | null>(null);
  const session = useRef<RecordingSession | null>(null);
  const stopMeter = useRef<(() => void) | null>(null);

  const release = () => {
    stopMeter.current?.();
    stopMeter.current = null;
    closeStream(stream.current);
    stream.current = null;
  };
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
      session.current?.cancel();
      release();
    },
    [],
  );
  useEffect(() => {
    if (!recording) return;
    const timer = setInterval(() => setSeconds(session.current?.elapsed() ?? 0), 250);
    return () => clearInterval(timer);
  }, [recording]);

  async function start() {
    setProblem('');
    try {
      const opened = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: false, noiseSuppression: false } });
      // The form closed while the browser asked: the cleanup has run, so the microphone is let go here.
      if (!mounted.current) return closeStream(opened);
      stream.current = opened;
    } catch (error) {
      setProblem(captureProblem(error, 'microphone'));
      return;
    }
    stopMeter.current = meterLevel(stream.current, setLevel);
    session.current = new RecordingSession(stream.current, 'audio', 'voice-recording');
    session.current.start();
    setSeconds(0);
    setRecording(true);
  }

  async function stop() {
    const current = session.current;
    session.current = null;
    setRecording(false);
    if (!current) return;
    const { file } = await current.stop();
    release();
    setLevel(0);
    onAudio(file);
  }

  return (
    <div class="voice-recorder">
      <div class="recorder" role="group" aria-label={`${label}: record with the microphone`}>
        <div class="recorder-actions">
          {recording ? (
            <button type="button" class="primary" onClick={stop}>
              ■ Stop ({seconds.toFixed(0)} s)
            </button>
          ) : (
            <button type="button" onClick={start}>
              ● {audio ? 'Record again' : 'Record with the microphone'}
            </button>
          )}
          <meter
            class="level"
            min={0}
            max={1}
            low={0.15}
            high={0.85}
            optimum={0.5}
            value={level}
            aria-label="Microphone level"
            title="Microphone level"
          />
        </div>
        {problem && (
          <p class="field-error" role="alert">
            {problem}
          </p>
        )}
      </div>
      <FileDrop
        id={id}
        label={label}
        accept={AUDIO_TYPES}
        hint="a recording (WAV, MP3, M4A, Ogg, WebM or FLAC)"
        file={audio}
        onFile={onAudio}
        path={path}
        at={at}
      />
    </div>
  );
}
