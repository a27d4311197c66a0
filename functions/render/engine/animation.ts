/**
 * What the bot does on each frame besides talking: blinks at irregular intervals and a gentle sway of the
 * body with a slightly livelier head. Deterministic (seeded from the text), so a clip renders the same
 * pixels every time — the render cache relies on that.
 */

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
  /** Body offset, output px. */
  bodyX: number;
  bodyY: number;
  /** Extra head offset on top of the body's, output px. */
  headX: number;
  headY: number;
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

/** Frames on which the eyes are closed: a 3-frame blink every 2–5.5 s. */
function blinkFrames(frames: number, fps: number, seed: number): Set<number> {
  const random = prng(seed);
  const closed = new Set<number>();
  let next = Math.round((0.8 + random() * 2) * fps);
  while (next < frames) {
    for (let i = 0; i < 3; i++) closed.add(next + i);
    next += Math.round((2 + random() * 3.5) * fps);
  }
  return closed;
}

/**
 * Poses for every frame. `mouth[i]` is the mouth level of frame i; `scale` converts artwork px to output px,
 * so the motion keeps its proportions at every bot size.
 */
export function poses(mouth: MouthFrame[], fps: number, scale: number, seed: number): FramePose[] {
  const blinks = blinkFrames(mouth.length, fps, seed);
  const phase = (seed % 1000) / 1000;
  const amp = Math.max(0.6, scale * 1.6);
  return mouth.map((frame, i) => {
    const level = Number(frame.frame.startsWith('m') ? frame.frame.slice(1) : 2);
    const t = i / fps;
    const wave = (period: number, offset: number) => Math.sin(2 * Math.PI * (t / period + phase + offset));
    return {
      mouth: frame,
      eyesOpen: !blinks.has(i),
      bodyX: Math.round(3 * amp * wave(6.3, 0)),
      bodyY: Math.round(0.8 * amp * (1 + wave(4.1, 0.3))),
      headX: Math.round(2 * amp * wave(4.7, 0.6)),
      headY: Math.round(1.5 * amp * wave(3.3, 0.15) + (level >= 3 ? amp * 0.8 : 0)),
    };
  });
}
