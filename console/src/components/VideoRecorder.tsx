import { useEffect, useRef, useState } from 'preact/hooks';
import { captureProblem, closeStream, type Recorded, RecordingSession } from '../media-capture.ts';

/** What the person reads aloud: about 30 s of natural speech, with the sounds the mouth atlas needs (m, b, p, f, oo, ee). */
const SCRIPT =
  'Hello! I am recording this short video so that my presenter can speak for me. ' +
  'Maybe you will watch it on a phone, maybe on a big screen: either way, it should look and sound like me. ' +
  'Five bright boxes, a blue umbrella and a cup of hot coffee. Who knew? We see three free trees. ' +
  'Thank you for watching, and see you soon.';

/** The listening pause at the end: still, lips closed, facing the camera (the mouth for m, b and p). */
const PAUSE_SECONDS = 5;

type Stage = 'off' | 'opening' | 'live' | 'recording' | 'pause' | 'saving';

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;

/**
 * Records a video bot's footage with the webcam: the camera's picture, a script to read, then a listening pause
 * ("now stay still with your mouth closed for 5 s") after which the recording stops by itself. The recording is
 * handed up (`onRecorded`); the form previews it before sending.
 */
export function VideoRecorder({ onRecorded }: { onRecorded: (recorded: Recorded) => void }) {
  const [stage, setStage] = useState<Stage>('off');
  const [problem, setProblem] = useState('');
  const [seconds, setSeconds] = useState(0);
  const [left, setLeft] = useState(PAUSE_SECONDS);
  const stream = useRef<MediaStream | null>(null);
  const session = useRef<RecordingSession | null>(null);
  const live = useRef<HTMLVideoElement>(null);

  // The camera is let go when the form goes away, and the ticking clock with it.
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
      session.current?.cancel();
      closeStream(stream.current);
    },
    [],
  );
  useEffect(() => {
    if (live.current && stream.current && live.current.srcObject !== stream.current) live.current.srcObject = stream.current;
  });
  useEffect(() => {
    if (stage !== 'recording' && stage !== 'pause') return;
    const timer = setInterval(() => setSeconds(session.current?.elapsed() ?? 0), 250);
    return () => clearInterval(timer);
  }, [stage]);
  useEffect(() => {
    if (stage !== 'pause') return;
    if (left <= 0) {
      void finish();
      return;
    }
    const timer = setTimeout(() => setLeft(left - 1), 1000);
    return () => clearTimeout(timer);
  }, [stage, left]);

  async function open() {
    setProblem('');
    setStage('opening');
    try {
      const opened = await navigator.mediaDevices.getUserMedia({ video: { width: { ideal: 1280 }, height: { ideal: 720 } }, audio: true });
      // The form closed while the browser asked: the cleanup has run, so the camera is let go here.
      if (!mounted.current) return closeStream(opened);
      stream.current = opened;
      setStage('live');
    } catch (error) {
      setProblem(captureProblem(error, 'camera'));
      setStage('off');
    }
  }

  function start() {
    if (!stream.current) return;
    session.current = new RecordingSession(stream.current, 'video', 'webcam-recording');
    session.current.start();
    setSeconds(0);
    setLeft(PAUSE_SECONDS);
    setStage('recording');
  }

  async function finish() {
    const current = session.current;
    if (!current) return;
    session.current = null;
    setStage('saving');
    const recorded = await current.stop();
    closeStream(stream.current);
    stream.current = null;
    setStage('off');
    onRecorded(recorded);
  }

  const on = stage === 'live' || stage === 'recording' || stage === 'pause';
  return (
    <div class="recorder" role="group" aria-labelledby="video-recorder-title">
      <h4 id="video-recorder-title">Record with the webcam</h4>
      {on && (
        <div class="camera">
          {/* The person's own picture, mirrored as in a mirror; the recording is not mirrored. */}
          <video ref={live} class="live" autoplay muted playsInline aria-label="The camera's picture" />
          {stage === 'recording' && (
            <p class="rec" role="status">
              ● Recording {clock(seconds)}
            </p>
          )}
        </div>
      )}
      {(stage === 'live' || stage === 'recording') && (
        <div class="script" aria-labelledby="video-script-title">
          <p id="video-script-title" class="help">
            {stage === 'live' ? 'When you start, read this aloud, looking into the camera:' : 'Read this aloud, looking into the camera:'}
          </p>
          <blockquote>{SCRIPT}</blockquote>
        </div>
      )}
      {stage === 'pause' && (
        <p class="cue" role="status" aria-live="assertive">
          Now stay still with your mouth closed for {PAUSE_SECONDS} s… {left}
        </p>
      )}
      {problem && (
        <p class="field-error" role="alert">
          {problem}
        </p>
      )}
      <div class="recorder-actions">
        {stage === 'off' && (
          <button type="button" onClick={open}>
            Turn the camera on
          </button>
        )}
        {stage === 'opening' && <p class="help">Waiting for the camera…</p>}
        {stage === 'live' && (
          <button type="button" class="primary" onClick={start}>
            Start recording
          </button>
        )}
        {stage === 'recording' && (
          <button type="button" class="primary" onClick={() => setStage('pause')}>
            I have read it: start the listening pause
          </button>
        )}
        {stage === 'saving' && <p class="help">Saving the recording…</p>}
        {(stage === 'live' || stage === 'recording' || stage === 'pause') && (
          <button
            type="button"
            onClick={() => {
              session.current?.cancel();
              session.current = null;
              closeStream(stream.current);
              stream.current = null;
              setStage('off');
            }}
          >
            Cancel
          </button>
        )}
      </div>
    </div>
  );
}
