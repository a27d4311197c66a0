/**
 * Lip sync: how open the mouth is on each video frame. With espeak-ng the speech's own loudness drives it
 * (RMS per frame, lightly smoothed, mapped to the mouth levels); with Polly the viseme marks give the shape
 * and the loudness closes the mouth in pauses.
 */

/** RMS loudness of each video frame's slice of the samples (frame i covers [i/fps, (i+1)/fps)). */
export function loudnessPerFrame(samples: Float32Array, sampleRate: number, fps: number, frames?: number): number[] {
  const count = frames ?? Math.ceil((samples.length / sampleRate) * fps);
  const out: number[] = [];
  for (let f = 0; f < count; f++) {
    const start = Math.floor((f * sampleRate) / fps);
    const end = Math.min(samples.length, Math.floor(((f + 1) * sampleRate) / fps));
    let sum = 0;
    for (let i = start; i < end; i++) sum += samples[i]! * samples[i]!;
    out.push(end > start ? Math.sqrt(sum / (end - start)) : 0);
  }
  return out;
}

const percentile = (values: number[], p: number) => {
  const sorted = values.filter((v) => v > 0).sort((a, b) => a - b);
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
};

/** Loudness scaled so the loud part of this utterance is about 1, lightly smoothed (no lag: symmetric). */
function normalisedEnvelope(loudness: number[]): number[] {
  const reference = percentile(loudness, 0.9) || 1;
  const scaled = loudness.map((v) => Math.min(1.2, v / reference));
  return scaled.map((v, i) => 0.25 * (scaled[i - 1] ?? v) + 0.5 * v + 0.25 * (scaled[i + 1] ?? v));
}

/** Mouth level (0 closed .. levels-1 wide) per frame from the loudness per frame. */
export function mouthLevelsFromLoudness(loudness: number[], levels = 5): number[] {
  const gate = 0.1;
  return normalisedEnvelope(loudness).map((v) => {
    if (v < gate) return 0;
    return Math.max(1, Math.min(levels - 1, Math.round(((v - gate) / (1 - gate)) * (levels - 1) + 0.3)));
  });
}

/** Openness 0..1 of each Amazon Polly viseme (https://docs.aws.amazon.com/polly/latest/dg/ph-table-english-us.html). */
const VISEME_OPENNESS: Record<string, number> = {
  sil: 0,
  p: 0,
  f: 0.25,
  T: 0.35,
  t: 0.4,
  S: 0.35,
  s: 0.3,
  k: 0.5,
  r: 0.45,
  i: 0.5,
  u: 0.45,
  e: 0.7,
  E: 0.75,
  '@': 0.7,
  o: 0.8,
  O: 0.9,
  a: 1,
};

/** Mouth level per frame from viseme marks, closed wherever the audio is silent. */
export function mouthLevelsFromVisemes(visemes: { timeMs: number; value: string }[], loudness: number[], fps: number, levels = 5): number[] {
  const envelope = normalisedEnvelope(loudness);
  const sorted = [...visemes].sort((a, b) => a.timeMs - b.timeMs);
  let cursor = 0;
  return envelope.map((energy, frame) => {
    const ms = ((frame + 0.5) / fps) * 1000;
    while (cursor + 1 < sorted.length && sorted[cursor + 1]!.timeMs <= ms) cursor++;
    const mark = sorted[cursor];
    if (!mark || mark.timeMs > ms || energy < 0.08) return 0;
    const openness = VISEME_OPENNESS[mark.value] ?? 0.5;
    return Math.round(Math.min(1, openness * (0.6 + 0.5 * Math.min(1, energy))) * (levels - 1));
  });
}

/** @internal Exported for its tests. */
export function pearson(a: number[], b: number[]): number {
  const n = Math.min(a.length, b.length);
  let ma = 0,
    mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a[i]!;
    mb += b[i]!;
  }
  ma /= n;
  mb /= n;
  let cov = 0,
    va = 0,
    vb = 0;
  for (let i = 0; i < n; i++) {
    const da = a[i]! - ma;
    const db = b[i]! - mb;
    cov += da * db;
    va += da * da;
    vb += db * db;
  }
  return va && vb ? cov / Math.sqrt(va * vb) : 0;
}
