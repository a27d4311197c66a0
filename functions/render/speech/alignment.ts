/**
 * Word timings for a voice that reports none (espeak-ng's WebAssembly build runs only its command line, which
 * prints no word or mark events): the words of the text are aligned to the pauses of the audio it produced.
 *
 * espeak-ng pauses at almost every clause end (`,` `;` `:` 100-190 ms, `.` `!` `?` 270-350 ms at our bots' rates)
 * and hardly inside a clause (stop consonants: 30-70 ms; a few 100 ms pauses). So the audio's silences of 100 ms or more are found, the
 * text is cut into clauses at its punctuation, and each clause boundary is matched to a silence near where the
 * clause's share of the text says it should be (a small dynamic programme, so a missing or extra pause does
 * not shift every later clause). Inside a clause, words share its speaking time by their length (digits count
 * more: numbers are read out long).
 */
import type { TimedWord } from '#domain/captions';

/** A silence at least this long may be a clause boundary. */
const MIN_GAP_SECONDS = 0.1;
/** Sound shorter than this between two silences (a click, a breath) does not split them. */
const MAX_BLIP_SECONDS = 0.03;
/** Analysis window. */
const HOP_SECONDS = 0.01;
/** Below this share of the loudest window's level, a window is silent. */
const SILENCE_RATIO = 0.02;
/** Seconds of misplacement that one second of pause is worth, when matching a boundary to a silence. */
const PAUSE_WEIGHT = 6;

interface Span {
  start: number;
  end: number;
}

/**
 * The words of a text: runs of characters between whitespace that hold a letter or a digit (UTF-16 offsets).
 * @internal Exported for its tests.
 */
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

/** Clause ends: a word followed by clause or sentence punctuation. */
const endsClause = (text: string, word: Span, next: Span | undefined) =>
  /[,.;:!?…،؛؟。！？，；：]/u.test(text.slice(word.end, next?.start ?? text.length) + text.slice(word.start, word.end).slice(-1));

/**
 * The silent stretches of the audio (interior ones only), and where sound starts and ends.
 * @internal Exported for its tests.
 */
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

/**
 * Which silence each clause boundary falls in (or none): boundaries and silences both in order, each silence
 * used at most once; maximises the pause matched less the misplacement against the text's proportions.
 */
function matchBoundaries(expected: number[], gaps: Span[], speakingBefore: number[], speaking: number): (number | undefined)[] {
  const B = expected.length;
  const M = gaps.length;
  // best[b][m]: the best score of boundaries 0..b-1 using only silences 0..m-1.
  const best = Array.from({ length: B + 1 }, () => new Float64Array(M + 1));
  for (let b = 0; b < B; b++) {
    for (let m = 0; m <= M; m++) {
      let score = best[b]![m]!; // boundary b unmatched
      if (m > 0) {
        const gap = gaps[m - 1]!;
        const misplaced = Math.abs(expected[b]! * speaking - speakingBefore[m - 1]!);
        score = Math.max(score, best[b + 1]![m - 1]!, best[b]![m - 1]! + PAUSE_WEIGHT * (gap.end - gap.start) - misplaced);
      }
      best[b + 1]![m] = score;
    }
  }
  const result: (number | undefined)[] = new Array(B).fill(undefined);
  let m = M;
  for (let b = B; b > 0; ) {
    if (m > 0 && best[b]![m] === best[b]![m - 1]) m--;
    else if (best[b]![m] === best[b - 1]![m]) b--;
    else {
      result[b - 1] = m - 1;
      b--;
      m--;
    }
  }
  return result;
}

/**
 * Seconds of speaking (sound) time, skipping the silences, mapped back to the audio's own clock. A start that
 * falls on a silence's edge is after it; an end, before it.
 */
function clockAt(speakingSeconds: number, soundStart: number, gaps: Span[], side: 'start' | 'end'): number {
  let t = soundStart + speakingSeconds;
  for (const gap of gaps) {
    if (side === 'start' ? gap.start <= t + 1e-9 : gap.start < t - 1e-9) t += gap.end - gap.start;
    else break;
  }
  return t;
}

/** Aligns the words of `text` (the text as it was spoken) to its audio. Offsets are into `text`. */
export function alignWords(text: string, samples: Float32Array, sampleRate: number): TimedWord[] {
  const words = wordsOf(text);
  if (!words.length) return [];
  const { gaps, soundStart, soundEnd } = silences(samples, sampleRate);
  const speaking = Math.max(1e-3, soundEnd - soundStart - gaps.reduce((n, g) => n + g.end - g.start, 0));
  const speakingBefore: number[] = [];
  let silent = 0;
  for (const gap of gaps) {
    speakingBefore.push(gap.start - soundStart - silent);
    silent += gap.end - gap.start;
  }

  // Clauses: runs of words ending at punctuation. Boundaries sit after the clause's last word.
  const clauseEnds: number[] = [];
  words.forEach((w, i) => {
    if (i < words.length - 1 && endsClause(text, w, words[i + 1])) clauseEnds.push(i);
  });
  const total = words.reduce((n, w) => n + w.weight, 0);
  const cumulative: number[] = [];
  words.reduce((n, w, i) => (cumulative[i] = n + w.weight), 0);
  const expected = clauseEnds.map((i) => cumulative[i]! / total);
  const matched = matchBoundaries(expected, gaps, speakingBefore, speaking);

  // Anchors in speaking time: the start, each matched boundary (its silence), the end. Words between two
  // anchors share the speaking time between them by weight.
  const anchors: { word: number; speaking: number }[] = [{ word: 0, speaking: 0 }];
  clauseEnds.forEach((wordIndex, b) => {
    const gap = matched[b];
    if (gap !== undefined) anchors.push({ word: wordIndex + 1, speaking: speakingBefore[gap]! });
  });
  anchors.push({ word: words.length, speaking });

  const timed: TimedWord[] = [];
  for (let a = 0; a + 1 < anchors.length; a++) {
    const from = anchors[a]!;
    const to = anchors[a + 1]!;
    const group = words.slice(from.word, to.word);
    const weight = group.reduce((n, w) => n + w.weight, 0);
    let at = from.speaking;
    for (const word of group) {
      const length = ((to.speaking - from.speaking) * word.weight) / weight;
      const startSeconds = clockAt(at, soundStart, gaps, 'start');
      const endSeconds = Math.max(startSeconds, clockAt(at + length, soundStart, gaps, 'end'));
      timed.push({ start: word.start, end: word.end, startSeconds: round(startSeconds), endSeconds: round(endSeconds) });
      at += length;
    }
  }
  return timed;
}

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;
