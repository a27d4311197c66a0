/**
 * How the mouth drawn from a recording's spectrum (no transcript) meets the same recording's aligned sounds: on each
 * aligned m, on b and p, on n and ng, on l and r, whether a frame of the sound shows the lips fully closed (m0, not a
 * closed mouth mixed toward the next shape); how many frames of the aligned vowels show them closed; and how many
 * closures last a single frame. The frames are lipsync.ts's, for a look with every shape, at 30 fps.
 */
import type { BotManifest } from '#domain/look';
import { mouthFrames } from '#functions/render/engine/lipsync.ts';
import { speechLoudness } from '#functions/render/engine/mouth-track.ts';
import type { SpeechResult } from '#functions/render/engine/types.ts';

const LOOK: Pick<BotManifest, 'mouthLevels' | 'mouthShapes'> = { mouthLevels: 5, mouthShapes: ['round', 'wide', 'fv'] };
const FPS = 30;
const VOWEL = /^[aeiouyæɑɒɔəɚɛɜɪʊʌøœɐ]/u;
const SOUNDS = { m: /^m$/u, bp: /^[bp]$/u, nasal: /^[nŋɲ]$/u, liquid: /^[lrɹʁɾ]$/u } as const;
type Sound = keyof typeof SOUNDS;

/** For each kind of sound, how many were aligned and how many show a closed frame; the vowels' frames; closures. */
export type SpectralClosures = Record<Sound, { count: number; closed: number }> & {
  vowelFrames: { count: number; closed: number };
  closures: { count: number; singleFrame: number };
};

const empty = (): SpectralClosures => ({
  m: { count: 0, closed: 0 },
  bp: { count: 0, closed: 0 },
  nasal: { count: 0, closed: 0 },
  liquid: { count: 0, closed: 0 },
  vowelFrames: { count: 0, closed: 0 },
  closures: { count: 0, singleFrame: 0 },
});

/** The counts for one recording: `aligned` spoke it with its transcript, `heard` without. */
export function spectralClosures(aligned: SpeechResult, heard: SpeechResult): SpectralClosures {
  const closed = mouthFrames(heard.spectralVisemes ?? [], speechLoudness(heard), FPS, LOOK).map((f) => f.frame === 'm0' && !f.toward);
  const counts = empty();
  for (const p of aligned.phonemes ?? []) {
    const first = Math.floor(p.startSeconds * FPS);
    const shown = closed.slice(first, Math.max(first + 1, Math.ceil(p.endSeconds * FPS)));
    const sound = (Object.keys(SOUNDS) as Sound[]).find((s) => SOUNDS[s].test(p.ipa));
    if (sound) {
      counts[sound].count++;
      if (shown.includes(true)) counts[sound].closed++;
    } else if (VOWEL.test(p.ipa)) {
      counts.vowelFrames.count += shown.length;
      counts.vowelFrames.closed += shown.filter(Boolean).length;
    }
  }
  closed.forEach((c, i) => {
    if (!c || closed[i - 1]) return;
    counts.closures.count++;
    if (!closed[i + 1]) counts.closures.singleFrame++;
  });
  return counts;
}

/** The counts of several recordings added up. */
export function addedClosures(all: readonly SpectralClosures[]): SpectralClosures {
  const sum = empty();
  for (const counts of all)
    for (const key of Object.keys(sum) as (keyof SpectralClosures)[]) {
      const into = sum[key] as Record<string, number>;
      for (const [name, value] of Object.entries(counts[key])) into[name] = (into[name] ?? 0) + value;
    }
  return sum;
}

/** The counts as a line of text. */
export const closuresText = (c: SpectralClosures): string =>
  `m/b/p fully closed ${c.m.closed + c.bp.closed} of ${c.m.count + c.bp.count} (m ${c.m.closed}/${c.m.count}, b/p ${c.bp.closed}/${c.bp.count}); ` +
  `n/ng ${c.nasal.closed}/${c.nasal.count}; l/r ${c.liquid.closed}/${c.liquid.count}; vowel frames closed ${c.vowelFrames.closed}/${c.vowelFrames.count}; ` +
  `closures ${c.closures.count}, ${c.closures.singleFrame} of a single frame`;
