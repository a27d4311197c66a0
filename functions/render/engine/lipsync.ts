/**
 * Lip sync: which mouth the bot shows on each video frame. The mouth follows the sound being made (visemes): the
 * engine's phonemes (espeak-ng, in every language: they are IPA) or Amazon Polly's viseme marks, each mapped to a
 * mouth shape — closed (m b p), lip to teeth (f v), rounded (oo o w), wide (ee), open (a), mid (e and the rest) —
 * while the loudness sets how far the mid and open mouths open and closes the mouth in pauses. A shape shows a
 * frame before its sound (the lips move first), changes over two frames (the next mouth blended in), and a
 * bilabial closes the lips fully on at least one frame however fast it is said.
 */
import { type BotManifest, mouthFramesOf } from '#domain/look';
import type { MouthFrame } from './animation.ts';
import type { TimedPhoneme } from './types.ts';
import type { Viseme, VisemeSpan } from './visemes.ts';

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

/**
 * The viseme of an IPA phoneme (stress marks removed): by its first letter, and for a diphthong (`aʊ`, `oʊ`) by the
 * vowel it starts on.
 */
const IPA_VISEMES: [RegExp, Viseme][] = [
  [/^[mbpɓβ]/u, 'closed'],
  [/^[fvɱʋ]/u, 'fv'],
  [/^(?:[uʊwʍɥyʏ]|ʃ|ʒ|tʃ|dʒ|ɹ)/u, 'round'],
  [/^[oɔɒøœɵɶ]/u, 'roundOpen'],
  [/^[iɪjɨɯ]/u, 'wide'],
  [/^æ/u, 'wideOpen'],
  [/^[aɑ]/u, 'open'],
  [/^[eɛəɜɚɐʌɘɤ]/u, 'mid'],
];

/** The viseme of one phoneme (the footage rig finds the bilabials with it). */
export const visemeOfPhoneme = (ipa: string): Viseme => IPA_VISEMES.find(([pattern]) => pattern.test(ipa))?.[1] ?? 'consonant';

/** Amazon Polly's visemes (https://docs.aws.amazon.com/polly/latest/dg/ph-table-english-us.html) as ours. */
const POLLY_VISEMES: Record<string, Viseme> = {
  p: 'closed',
  f: 'fv',
  u: 'round',
  S: 'round',
  r: 'round',
  o: 'roundOpen',
  O: 'roundOpen',
  i: 'wide',
  e: 'mid',
  E: 'mid',
  '@': 'mid',
  a: 'open',
  t: 'consonant',
  T: 'consonant',
  s: 'consonant',
  k: 'consonant',
};

/** The engine's phonemes as viseme spans. */
export const visemesOfPhonemes = (phonemes: readonly TimedPhoneme[]): VisemeSpan[] =>
  phonemes.map((p) => ({ viseme: visemeOfPhoneme(p.ipa), startSeconds: p.startSeconds, endSeconds: p.endSeconds }));

/** Polly's viseme marks as spans: each lasts until the next (`sil` is silence, no span). */
export function visemesOfPolly(marks: readonly { timeMs: number; value: string }[], durationSeconds: number): VisemeSpan[] {
  const sorted = [...marks].sort((a, b) => a.timeMs - b.timeMs);
  const spans: VisemeSpan[] = [];
  sorted.forEach((mark, i) => {
    const end = Math.min(durationSeconds, (sorted[i + 1]?.timeMs ?? durationSeconds * 1000) / 1000);
    if (mark.value !== 'sil' && end > mark.timeMs / 1000)
      spans.push({ viseme: POLLY_VISEMES[mark.value] ?? 'consonant', startSeconds: mark.timeMs / 1000, endSeconds: end });
  });
  return spans;
}

/** The lips move a little before the sound is heard. */
export const LEAD_SECONDS = 0.035;
/** Below this share of the utterance's loud level, the mouth rests (a pause, a breath). */
const SILENCE = 0.08;
/** How far toward the next mouth the frame where the shape changes shows it. */
const CHANGE_BLEND = 0.6;

/** The look's mouth frame for a viseme at a loudness (0..~1.2), from the frames the look has. */
function mouthFor(viseme: Viseme, energy: number, has: (frame: string) => boolean, levels: number): string {
  const level = (n: number) => `m${Math.max(0, Math.min(levels - 1, Math.round(n)))}`;
  const top = levels - 1;
  switch (viseme) {
    case 'closed':
      return 'm0';
    case 'fv':
      return has('fv') ? 'fv' : level(1);
    // A shape's two frames differ in how open they are: a loud "oo" opens to r2, a quiet "o" stays at r1.
    case 'round':
      return has('r1') ? (energy > 0.9 && has('r2') ? 'r2' : 'r1') : level(1);
    case 'roundOpen':
      return has('r2') ? (energy < 0.3 && has('r1') ? 'r1' : 'r2') : level(top * 0.5);
    case 'wide':
      return has('w1') ? (energy > 0.9 && has('w2') ? 'w2' : 'w1') : level(1);
    case 'wideOpen':
      return has('w2') ? (energy < 0.3 && has('w1') ? 'w1' : 'w2') : level(top * 0.6);
    case 'open':
      return level(energy > 0.7 ? top : top - 1);
    case 'mid':
      return level(energy > 0.85 ? top * 0.75 : energy < 0.35 ? top * 0.25 : top * 0.5);
    default:
      return level(energy < 0.3 ? 0.5 : top * 0.25);
  }
}

/**
 * The mouth of every frame of the speech (frame i covers [i/fps, (i+1)/fps)), for a look: `visemes` give the shape,
 * `loudness` (per frame) how open and when silent. A look without a shape's frames shows its nearest open level.
 */
export function mouthFrames(
  visemes: readonly VisemeSpan[],
  loudness: number[],
  fps: number,
  look: Pick<BotManifest, 'mouthLevels' | 'mouthShapes'>,
): MouthFrame[] {
  const available = new Set(mouthFramesOf(look));
  const has = (frame: string) => available.has(frame);
  const envelope = normalisedEnvelope(loudness);
  const spans = [...visemes].sort((a, b) => a.startSeconds - b.startSeconds);
  let cursor = 0;
  const targets = envelope.map((energy, frame) => {
    const at = (frame + 0.5) / fps + LEAD_SECONDS;
    while (cursor < spans.length && spans[cursor]!.endSeconds <= at) cursor++;
    const span = spans[cursor];
    if (!span || span.startSeconds > at || energy < SILENCE) return 'm0';
    return mouthFor(span.viseme, energy, has, look.mouthLevels);
  });
  // However fast it is said, a bilabial closes the lips: on the frame nearest its middle, at least.
  for (const span of spans) {
    if (span.viseme !== 'closed') continue;
    const middle = Math.floor(((span.startSeconds + span.endSeconds) / 2 - LEAD_SECONDS) * fps);
    if (middle >= 0 && middle < targets.length) targets[middle] = 'm0';
  }
  return targets.map((frame, i) => {
    const before = targets[i - 1];
    // Closed lips are shown closed; any other change of shape shows both mouths on its first frame.
    if (before === undefined || before === frame || frame === 'm0') return { frame };
    return { frame: before, toward: { frame, amount: CHANGE_BLEND } };
  });
}

/** Mouth level (0 closed .. levels-1 wide) per frame from the loudness alone: speech without timed sounds. */
export function mouthLevelsFromLoudness(loudness: number[], levels = 5): number[] {
  const gate = 0.1;
  return normalisedEnvelope(loudness).map((v) => {
    if (v < gate) return 0;
    return Math.max(1, Math.min(levels - 1, Math.round(((v - gate) / (1 - gate)) * (levels - 1) + 0.3)));
  });
}
