/**
 * How the mouth drawn from a recording's spectrum (no transcript) meets the same recording's aligned sounds: on each
 * aligned m, b and p, whether a frame of the sound shows the lips closed (m0); on n and ng; and how many frames of
 * the aligned vowels show them closed. The frames are lipsync.ts's, for a look with every shape, at 30 fps.
 */
import type { BotManifest } from '#domain/look';
import { mouthFrames } from '#functions/render/engine/lipsync.ts';
import { speechLoudness } from '#functions/render/engine/mouth-track.ts';
import type { SpeechResult } from '#functions/render/engine/types.ts';

const LOOK: Pick<BotManifest, 'mouthLevels' | 'mouthShapes'> = { mouthLevels: 5, mouthShapes: ['round', 'wide', 'fv'] };
const FPS = 30;
const VOWEL = /^[aeiouyæɑɒɔəɚɛɜɪʊʌøœɐ]/u;

export interface SpectralClosures {
  bilabials: number;
  bilabialsClosed: number;
  nasals: number;
  nasalsClosed: number;
  vowelFrames: number;
  vowelFramesClosed: number;
}

/** The counts for one recording: `aligned` spoke it with its transcript, `heard` without. */
export function spectralClosures(aligned: SpeechResult, heard: SpeechResult): SpectralClosures {
  const frames = mouthFrames(heard.spectralVisemes ?? [], speechLoudness(heard), FPS, LOOK);
  const counts: SpectralClosures = { bilabials: 0, bilabialsClosed: 0, nasals: 0, nasalsClosed: 0, vowelFrames: 0, vowelFramesClosed: 0 };
  for (const p of aligned.phonemes ?? []) {
    const first = Math.floor(p.startSeconds * FPS);
    const shown = frames.slice(first, Math.max(first + 1, Math.ceil(p.endSeconds * FPS))).map((f) => f.frame);
    const closed = shown.includes('m0');
    if (/^[mbp]$/u.test(p.ipa)) {
      counts.bilabials++;
      if (closed) counts.bilabialsClosed++;
    } else if (/^[nŋ]$/u.test(p.ipa)) {
      counts.nasals++;
      if (closed) counts.nasalsClosed++;
    } else if (VOWEL.test(p.ipa)) {
      counts.vowelFrames += shown.length;
      counts.vowelFramesClosed += shown.filter((f) => f === 'm0').length;
    }
  }
  return counts;
}

/** The counts of several recordings added up. */
export const addedClosures = (all: SpectralClosures[]): SpectralClosures =>
  all.reduce(
    (sum, c) => ({
      bilabials: sum.bilabials + c.bilabials,
      bilabialsClosed: sum.bilabialsClosed + c.bilabialsClosed,
      nasals: sum.nasals + c.nasals,
      nasalsClosed: sum.nasalsClosed + c.nasalsClosed,
      vowelFrames: sum.vowelFrames + c.vowelFrames,
      vowelFramesClosed: sum.vowelFramesClosed + c.vowelFramesClosed,
    }),
    { bilabials: 0, bilabialsClosed: 0, nasals: 0, nasalsClosed: 0, vowelFrames: 0, vowelFramesClosed: 0 },
  );
