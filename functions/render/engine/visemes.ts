/**
 * Visemes: what the lips do for a sound, and a stretch of speech with one. The speech steps make them (the
 * engine's phonemes, Polly's marks, the spectral estimate of a recording) and lip sync (lipsync.ts) reads them.
 */

/** What the lips do for a sound. */
export type Viseme = 'closed' | 'fv' | 'round' | 'roundOpen' | 'wide' | 'wideOpen' | 'open' | 'mid' | 'consonant';

/** A stretch of speech with one viseme. */
export interface VisemeSpan {
  viseme: Viseme;
  startSeconds: number;
  endSeconds: number;
}
