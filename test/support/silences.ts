/**
 * Measuring speech in tests: where the audio is silent (the pauses a voice makes), and the words of a text. The
 * engine times words and sounds itself (espeak-ng's events); these check those times against the audio.
 */

/** A silence at least this long may be a clause boundary. */
const MIN_GAP_SECONDS = 0.1;
/** Sound shorter than this between two silences (a click, a breath) does not split them. */
const MAX_BLIP_SECONDS = 0.03;
/** Analysis window. */
const HOP_SECONDS = 0.01;
/** Below this share of the loudest window's level, a window is silent. */
const SILENCE_RATIO = 0.02;

interface Span {
  start: number;
  end: number;
}

/** The words of a text: runs of characters between whitespace that hold a letter or a digit (UTF-16 offsets). */
export function wordsOf(text: string): (Span & { weight: number })[] {
  const words: (Span & { weight: number })[] = [];
  for (const match of text.matchAll(/\S+/gu)) {
    const token = match[0];
    if (!/[\p{L}\p{N}]/u.test(token)) continue;
    const letters = (token.match(/\p{L}/gu) ?? []).length;
    const digits = (token.match(/\p{N}/gu) ?? []).length;
    words.push({ start: match.index, end: match.index + token.length, weight: Math.max(1, letters + 4 * digits) });
  }
  return words;
}

/** The silent stretches of the audio (interior ones only), and where sound starts and ends. */
export function silences(samples: Float32Array, sampleRate: number): { gaps: Span[]; soundStart: number; soundEnd: number } {
  const hop = Math.max(1, Math.round(sampleRate * HOP_SECONDS));
  const levels: number[] = [];
  for (let i = 0; i + hop <= samples.length; i += hop) {
    let sum = 0;
    for (let j = i; j < i + hop; j++) sum += samples[j]! * samples[j]!;
    levels.push(Math.sqrt(sum / hop));
  }
  const peak = Math.max(0, ...levels);
  const silent = levels.map((level) => level <= peak * SILENCE_RATIO);
  const first = silent.indexOf(false);
  const last = silent.lastIndexOf(false);
  const duration = samples.length / sampleRate;
  if (first < 0) return { gaps: [], soundStart: 0, soundEnd: duration };
  const runs: Span[] = [];
  let from = -1;
  for (let i = first; i <= last + 1; i++) {
    if (i <= last && silent[i]) {
      if (from < 0) from = i;
    } else if (from >= 0) {
      runs.push({ start: from * HOP_SECONDS, end: i * HOP_SECONDS });
      from = -1;
    }
  }
  // Merge silences split by a blip, then keep the long ones.
  const merged: Span[] = [];
  for (const run of runs) {
    const prev = merged[merged.length - 1];
    if (prev && run.start - prev.end <= MAX_BLIP_SECONDS + 1e-9) prev.end = run.end;
    else merged.push({ ...run });
  }
  return {
    gaps: merged.filter((g) => g.end - g.start >= MIN_GAP_SECONDS - 1e-9),
    soundStart: first * HOP_SECONDS,
    soundEnd: Math.min(duration, (last + 1) * HOP_SECONDS),
  };
}
