/**
 * What the bot does on each frame besides talking, led by the speech: the head tilts and nods on stressed
 * syllables and settles at phrase boundaries (still in the pauses), the eyebrows lift on some stressed words, the
 * shoulders rise with a breath before a phrase, and the eyes blink at irregular intervals and after a phrase ends.
 * Deterministic (seeded from the text), so a clip renders the same pixels every time — the render cache relies on
 * that. Docs: docs/presenters.md.
 */
import type { TimedPhoneme } from './types.ts';

/**
 * What the mouth shows on a frame: one of the look's mouth frames (`m0`..`m4`, `r1`, `w2`, `fv`: domain/look.ts
 * mouthFramesOf), and while it changes shape, the next one blended in by `amount` (0..1) around the mouth.
 */
export interface MouthFrame {
  frame: string;
  toward?: { frame: string; amount: number };
}

export interface FramePose {
  mouth: MouthFrame;
  eyesOpen: boolean;
  /** Body offset, output px (the breath: shoulders rise as the offset goes to 0). */
  bodyX: number;
  bodyY: number;
  /** Extra head offset on top of the body's, output px. */
  headX: number;
  headY: number;
  /** Head roll about the neck (face.pivot), degrees, positive clockwise on screen; a multiple of TILT_STEP. @default 0 */
  tilt?: number;
  /** Nod: the face lowered by this many output px (the neck's end stays). @default 0 */
  nod?: number;
  /** Eyebrows lifted by this many output px. @default 0 */
  brow?: number;
}

/** Tilt is quantised to this many degrees (with nod and brow in whole px) so that poses repeat and their drawings are reused. */
const TILT_STEP = 0.25;
/** The head never rolls further than this either way (degrees). */
export const MAX_TILT = 2.5;

/** Sizes of the motion in canvas units (scaled to output px by the sprites' scale). */
const NOD_UNITS = 4;
const BROW_UNITS = 3.5;
const BREATH_UNITS = 2.4;
const SWAY_UNITS = 1.2;

/** A silence at least this long (seconds) between sounds ends a phrase. */
const PHRASE_GAP = 0.22;

/** When the voice speaks, for the motion: from the engine's phonemes, or else from the loudness per frame. */
export interface SpeechMotionInput {
  /** The speech's sounds (espeak-ng), times in seconds from the speech's start. */
  phonemes?: TimedPhoneme[];
  /** Loudness per frame of the speech (lipsync.ts loudnessPerFrame), used when there are no phonemes. */
  loudness: ArrayLike<number>;
  /** The clip frame the speech starts on (after the entry transition). */
  startFrame: number;
}

/** Small deterministic PRNG (mulberry32). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function hashString(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** A stretch of speech between pauses, seconds of the clip. */
interface Phrase {
  start: number;
  end: number;
}
/** A stressed syllable (or a loudness peak), seconds of the clip. */
interface Beat {
  time: number;
  phrase: number;
}

const isPause = (p: TimedPhoneme) => !p.ipa.trim() || /^[_|‖.]+$/.test(p.ipa.trim());

/** Phrases and stressed syllables from the engine's phonemes (`offset`: the speech's start in the clip, s). */
function fromPhonemes(phonemes: TimedPhoneme[], offset: number): { phrases: Phrase[]; beats: Beat[] } {
  const sounds = phonemes.filter((p) => !isPause(p) && p.endSeconds > p.startSeconds).sort((a, b) => a.startSeconds - b.startSeconds);
  const phrases: Phrase[] = [];
  const beats: Beat[] = [];
  for (const p of sounds) {
    const last = phrases.at(-1);
    if (last && p.startSeconds + offset - last.end < PHRASE_GAP) last.end = Math.max(last.end, p.endSeconds + offset);
    else phrases.push({ start: p.startSeconds + offset, end: p.endSeconds + offset });
    if (p.stress === 1) beats.push({ time: p.startSeconds + offset, phrase: phrases.length - 1 });
  }
  return { phrases, beats };
}

/**
 * Phrases and beats from the loudness alone (Polly gives no phonemes): phrases are where the smoothed loudness is
 * above a fifth of its loud level, beats the prominent peaks inside them, at most one per 0.3 s.
 */
function fromLoudness(loudness: ArrayLike<number>, fps: number, offset: number): { phrases: Phrase[]; beats: Beat[] } {
  const n = loudness.length;
  const smooth = Float64Array.from({ length: n }, (_, i) => {
    let s = 0,
      c = 0;
    for (let k = -2; k <= 2; k++) {
      const v = loudness[i + k];
      if (v !== undefined) {
        s += v;
        c++;
      }
    }
    return s / c;
  });
  const sorted = [...smooth].sort((a, b) => a - b);
  const loud = sorted[Math.floor(sorted.length * 0.9)] ?? 0;
  const phrases: Phrase[] = [];
  const beats: Beat[] = [];
  if (loud <= 0) return { phrases, beats };
  const voiced = (i: number) => smooth[i]! > loud * 0.2;
  for (let i = 0; i < n; i++) {
    if (!voiced(i)) continue;
    const t = i / fps + offset;
    const last = phrases.at(-1);
    if (last && t - last.end < PHRASE_GAP) last.end = t + 1 / fps;
    else phrases.push({ start: t, end: t + 1 / fps });
  }
  const minGap = Math.round(0.3 * fps);
  let lastBeat = -minGap;
  for (let i = 1; i < n - 1; i++) {
    const v = smooth[i]!;
    if (v < loud * 0.55 || v < smooth[i - 1]! || v < smooth[i + 1]! || i - lastBeat < minGap) continue;
    const t = i / fps + offset;
    const phrase = phrases.findIndex((p) => t >= p.start && t <= p.end);
    if (phrase < 0) continue;
    // The onset of the syllable: where the rise to this peak began.
    let j = i;
    while (j > 0 && smooth[j - 1]! < smooth[j]! && i - j < 6) j--;
    beats.push({ time: j / fps + offset, phrase });
    lastBeat = i;
  }
  return { phrases, beats };
}

/** A smooth bump over [0, 1]: 0 at both ends with zero slope, 1 in the middle. */
const bump = (u: number) => (u <= 0 || u >= 1 ? 0 : Math.sin(Math.PI * u) ** 2);
/** 0 before `a`, 1 after `b`, smoothstep between. */
const ramp = (t: number, a: number, b: number) => {
  const u = Math.min(1, Math.max(0, (t - a) / (b - a)));
  return u * u * (3 - 2 * u);
};

/** Frames on which the eyes are closed: a 3-frame blink every 2–5.5 s, and often one just after a phrase ends. */
function blinkFrames(frames: number, fps: number, random: () => number, phrases: Phrase[]): Set<number> {
  const starts: number[] = [];
  let next = Math.round((0.8 + random() * 2) * fps);
  while (next < frames) {
    starts.push(next);
    next += Math.round((2 + random() * 3.5) * fps);
  }
  for (const [i, p] of phrases.entries()) {
    if (i === phrases.length - 1 && p.end * fps > frames - fps) continue;
    if (random() < 0.65) starts.push(Math.round((p.end + 0.08 + random() * 0.12) * fps));
  }
  starts.sort((a, b) => a - b);
  const closed = new Set<number>();
  let last = -Infinity;
  for (const s of starts) {
    // Never two blinks within 0.9 s.
    if (s - last < 0.9 * fps || s >= frames) continue;
    for (let i = 0; i < 3; i++) closed.add(s + i);
    last = s;
  }
  return closed;
}

/**
 * Critically damped spring following `target` per frame (no overshoot, no snapping): settles in about 1/`hz` s.
 */
function follow(target: ArrayLike<number>, fps: number, hz: number, start = 0): Float64Array {
  const out = new Float64Array(target.length);
  const w = 2 * Math.PI * hz;
  const dt = 1 / fps;
  let x = start,
    v = 0;
  for (let i = 0; i < target.length; i++) {
    // Semi-implicit Euler in 4 sub-steps: stable for any hz used here.
    for (let k = 0; k < 4; k++) {
      const h = dt / 4;
      v += (w * w * (target[i]! - x) - 2 * w * v) * h;
      x += v * h;
    }
    out[i] = x;
  }
  return out;
}

/**
 * A motion in steps of `step`, with hysteresis: a step is taken only once the motion is 0.7 of a step past the
 * value held, so a motion hovering at a step's edge does not flicker between two values from frame to frame.
 */
function quantised(values: ArrayLike<number>, step: number): number[] {
  const out: number[] = [];
  let held = Math.round(values[0]! / step);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]! / step;
    if (Math.abs(v - held) > 0.7) held = Math.round(v);
    out.push(held * step === 0 ? 0 : held * step); // no -0 in keys
  }
  return out;
}

interface Accent {
  time: number;
  weight: number;
  side: number;
  brow: boolean;
}

/** Accents: the first and last stressed syllable of a phrase strongly, the others lighter, some skipped. */
function accentsOf(beats: Beat[], random: () => number): Accent[] {
  const accents: Accent[] = [];
  let lastBrow = -Infinity;
  for (const [i, beat] of beats.entries()) {
    const first = beats[i - 1]?.phrase !== beat.phrase;
    const last = beats[i + 1]?.phrase !== beat.phrase;
    const previous = accents.at(-1);
    const r = random();
    if (!first && !last && ((previous && beat.time - previous.time < 0.45) || r < 0.3)) continue;
    const weight = last ? 1 : first ? 0.8 : 0.35 + 0.4 * random();
    const brow = weight >= 0.8 && beat.time - lastBrow > 1.6 && random() < 0.55;
    if (brow) lastBrow = beat.time;
    accents.push({ time: beat.time, weight, side: random() < 0.5 ? -1 : 1, brow });
  }
  return accents;
}

/** The head's posture per frame: a lean per phrase, back towards upright (a little off) in the pauses. */
function leanOf(phrases: Phrase[], frames: number, fps: number, random: () => number): Float64Array {
  const posture = new Float64Array(frames);
  const restLean = (random() - 0.5) * 0.6;
  let side = random() < 0.5 ? -1 : 1;
  const leans = phrases.map(() => {
    side = random() < 0.75 ? -side : side;
    return side * (0.5 + random() * 1.1);
  });
  for (let i = 0; i < frames; i++) {
    const t = i / fps;
    const p = phrases.findIndex((ph) => t >= ph.start - 0.15 && t <= ph.end + 0.1);
    posture[i] = p >= 0 ? leans[p]! : restLean;
  }
  return follow(posture, fps, 1.2, restLean);
}

/**
 * Poses for every frame. `mouth[i]` is the mouth of frame i; `scale` converts artwork px to output px, so the
 * motion keeps its proportions at every bot size. `speech` leads the head (without it the head stays upright).
 */
export function poses(mouth: MouthFrame[], fps: number, scale: number, seed: number, speech?: SpeechMotionInput): FramePose[] {
  const frames = mouth.length;
  const random = prng(seed);
  const offset = (speech?.startFrame ?? 0) / fps;
  const { phrases, beats } = !speech
    ? { phrases: [], beats: [] }
    : speech.phonemes?.length
      ? fromPhonemes(speech.phonemes, offset)
      : fromLoudness(speech.loudness, fps, offset);

  const accents = accentsOf(beats, random);

  const lean = leanOf(phrases, frames, fps, random);

  const nodPx = NOD_UNITS * scale;
  const browPx = BROW_UNITS * scale;
  const breathPx = Math.max(1, BREATH_UNITS * scale);
  const swayPx = Math.max(0.6, SWAY_UNITS * scale);
  const phase = (seed % 1000) / 1000;
  const blinks = blinkFrames(frames, fps, random, phrases);

  // Breath: in over 0.45 s before each phrase (after a pause long enough to breathe), out slowly while speaking.
  const breaths = phrases
    .filter((p, i) => i === 0 || p.start - phrases[i - 1]!.end > 0.3)
    .map((p) => ({ at: p.start, out: Math.min(3, Math.max(1, p.end - p.start)) }));
  const breathAt = (t: number) => {
    let level = 0;
    for (const b of breaths) {
      if (t < b.at - 0.5 || t > b.at + b.out + 0.5) continue;
      level = Math.max(level, ramp(t, b.at - 0.5, b.at - 0.05) * (1 - ramp(t, b.at + 0.2, b.at + b.out)));
    }
    return level;
  };

  const tilts = new Float64Array(frames);
  const nods = new Float64Array(frames);
  const brows = new Float64Array(frames);
  for (let i = 0; i < frames; i++) {
    const t = i / fps;
    let nod = 0,
      tilt = lean[i]!,
      brow = 0;
    for (const a of accents) {
      const u = (t - a.time + 0.16) / 0.46; // peaks ~70 ms after the vowel starts
      if (u <= 0 || u >= 1) continue;
      const b = bump(u);
      nod += a.weight * b;
      tilt += a.side * a.weight * 0.55 * b;
    }
    for (const a of accents) {
      if (!a.brow) continue;
      // Up in 0.15 s, held 0.3 s, down in 0.3 s.
      brow = Math.max(brow, ramp(t, a.time - 0.1, a.time + 0.05) * (1 - ramp(t, a.time + 0.35, a.time + 0.65)));
    }
    tilts[i] = Math.max(-MAX_TILT, Math.min(MAX_TILT, tilt));
    nods[i] = Math.min(1, nod) * nodPx;
    brows[i] = brow * browPx;
  }
  const [tilt, nod, brow] = [quantised(tilts, TILT_STEP), quantised(nods, 1), quantised(brows, 1)];

  return mouth.map((frame, i) => {
    const t = i / fps;
    return {
      mouth: frame,
      eyesOpen: !blinks.has(i),
      bodyX: Math.round(swayPx * Math.sin(2 * Math.PI * (t / 7.3 + phase))),
      bodyY: Math.round(breathPx * (1 - breathAt(t))),
      headX: 0,
      headY: 0,
      tilt: tilt[i]!,
      nod: nod[i]!,
      brow: brow[i]!,
    };
  });
}
