/**
 * Recording in the browser (the webcam for a video bot, the microphone for a clip): one MediaRecorder session,
 * its file made whole, and the microphone's level for a meter. Browser APIs only; the components hold the stages.
 */
import fixWebmDuration from 'fix-webm-duration';
import { mediaType } from './media-type.ts';

/** The formats a recorder is asked for, best first; the API takes WebM and MP4 (Safari records MP4). */
const PREFERRED = {
  video: ['video/webm;codecs=vp8,opus', 'video/webm', 'video/mp4'],
  audio: ['audio/webm;codecs=opus', 'audio/webm', 'audio/mp4'],
} as const;

export interface Recorded {
  file: File;
  seconds: number;
}

/** Why a camera or microphone could not be opened, in words a person can act on. */
export function captureProblem(error: unknown, device: 'camera' | 'microphone'): string {
  const name = error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError')
    return `The browser did not allow the ${device}: allow it for this page (the address bar's icon), then try again.`;
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return `No ${device} was found on this device.`;
  if (name === 'NotReadableError') return `The ${device} is busy in another application.`;
  if (!navigator.mediaDevices?.getUserMedia) return `This page cannot use a ${device} here (it needs https, or this computer's own address).`;
  return `The ${device} could not be opened.`;
}

/** One recording from an open stream. `stop()` answers the file, its duration written into it, and how long it is. */
export class RecordingSession {
  private readonly recorder: MediaRecorder;
  private readonly chunks: Blob[] = [];
  private readonly stopped: Promise<void>;
  private startedAt = 0;

  constructor(
    stream: MediaStream,
    private readonly kind: 'video' | 'audio',
    private readonly name: string,
  ) {
    const mimeType = PREFERRED[kind].find((type) => MediaRecorder.isTypeSupported(type));
    this.recorder = new MediaRecorder(stream, mimeType ? { mimeType } : {});
    this.recorder.ondataavailable = (e) => {
      if (e.data.size > 0) this.chunks.push(e.data);
    };
    this.stopped = new Promise((resolve) => {
      this.recorder.onstop = () => resolve();
    });
  }

  start() {
    this.startedAt = performance.now();
    this.recorder.start(1000);
  }

  /** Seconds since start. */
  elapsed = () => (this.startedAt ? (performance.now() - this.startedAt) / 1000 : 0);

  async stop(): Promise<Recorded> {
    const seconds = this.elapsed();
    if (this.recorder.state !== 'inactive') this.recorder.stop();
    await this.stopped;
    const type = this.recorder.mimeType || PREFERRED[this.kind][1];
    let blob = new Blob(this.chunks, { type });
    // A MediaRecorder's WebM is written as it goes and never says how long it is; a reader (the API's probe, the
    // preview's seek bar) needs the duration in its header.
    if (mediaType(blob).endsWith('/webm')) blob = await fixWebmDuration(blob, seconds * 1000, { logger: false });
    const extension = mediaType(blob).endsWith('/mp4') ? (this.kind === 'video' ? 'mp4' : 'm4a') : 'webm';
    return { file: new File([blob], `${this.name}.${extension}`, { type: mediaType(blob) }), seconds };
  }

  /** Stops recording (if it still is) without keeping anything. */
  cancel() {
    if (this.recorder.state !== 'inactive') this.recorder.stop();
  }
}

/** Stops a stream's camera and microphone (their lights go off). */
export const closeStream = (stream: MediaStream | null) => {
  for (const track of stream?.getTracks() ?? []) track.stop();
};

/**
 * Calls `onLevel` about 20 times a second with the microphone's loudness, 0 (silence) to 1 (a loud voice close
 * by): the root mean square of the last 2048 samples, scaled so speech fills most of the meter. Answers a stop.
 */
export function meterLevel(stream: MediaStream, onLevel: (level: number) => void): () => void {
  const context = new AudioContext();
  const analyser = context.createAnalyser();
  analyser.fftSize = 2048;
  context.createMediaStreamSource(stream).connect(analyser);
  const samples = new Float32Array(analyser.fftSize);
  const timer = setInterval(() => {
    analyser.getFloatTimeDomainData(samples);
    let sum = 0;
    for (const s of samples) sum += s * s;
    onLevel(Math.min(1, Math.sqrt(sum / samples.length) * 4));
  }, 50);
  return () => {
    clearInterval(timer);
    void context.close();
  };
}

/** A media file's duration in seconds, read by the browser; null when it cannot tell (the API then checks). */
export function mediaSeconds(file: File): Promise<number | null> {
  return new Promise((resolve) => {
    const element = document.createElement(file.type.startsWith('audio/') ? 'audio' : 'video');
    const url = URL.createObjectURL(file);
    const done = (seconds: number | null) => {
      clearTimeout(timer);
      URL.revokeObjectURL(url);
      resolve(seconds);
    };
    const timer = setTimeout(() => done(null), 5000);
    element.preload = 'metadata';
    element.onloadedmetadata = () => done(Number.isFinite(element.duration) ? element.duration : null);
    element.onerror = () => done(null);
    element.src = url;
  });
}
