/**
 * Every spoken word of a video with its time: `output.captions.words_url`, the JSON list editors and karaoke-style
 * captions need. A clip's words are stored beside its render with its cues; the assembly joins them, each shifted
 * by where its clip starts, as it joins the cues. Pure: no I/O.
 */
import type { Cue, TimedWord } from './captions.ts';

/** A word as the clip's text writes it, and when it is said, in seconds from its clip's start. */
export interface SpokenWord {
  text: string;
  startSeconds: number;
  endSeconds: number;
}

/** A word of the video's words file: seconds from the video's start; `clip` is the clip's index in the request. */
export interface VideoWord {
  text: string;
  start: number;
  end: number;
  clip: number;
}

export const WORDS_CONTENT_TYPE = 'application/json';

/** Punctuation around a word is the sentence's, not the word's (`Welcome,` is `Welcome`); a word of punctuation alone stays. */
const bare = (word: string) => {
  const spaced = word.trim().replace(/\s+/gu, ' ');
  return spaced.replace(/^(?:(?!%)\p{P})+|(?:(?!%)\p{P})+$/gu, '') || spaced;
};

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

/**
 * A clip's spoken words: each timed word's text as the clip's text writes it, without the punctuation around it,
 * in the order said, shifted by `offsetSeconds` (where the speech starts in the clip).
 */
export function spokenWords(text: string, words: TimedWord[], offsetSeconds = 0): SpokenWord[] {
  return [...words]
    .filter((w) => w.end > w.start)
    .sort((a, b) => a.startSeconds - b.startSeconds || a.start - b.start)
    .map((w) => ({
      text: bare(text.slice(w.start, w.end)),
      startSeconds: round(w.startSeconds + offsetSeconds),
      endSeconds: round(Math.max(w.endSeconds, w.startSeconds) + offsetSeconds),
    }))
    .filter((w) => w.text.length > 0);
}

/**
 * The words of a clip stored before its words were kept beside it: its cues' words, each cue's time shared evenly
 * between them (a word's time within its cue is then approximate; the cue's own time is exact).
 */
export function wordsOfCues(cues: Cue[]): SpokenWord[] {
  return cues.flatMap((cue) => {
    const texts = cue.lines.join(' ').split(/\s+/u).filter(Boolean);
    const step = (cue.endSeconds - cue.startSeconds) / Math.max(1, texts.length);
    return texts.map((text, i) => ({ text, startSeconds: round(cue.startSeconds + i * step), endSeconds: round(cue.startSeconds + (i + 1) * step) }));
  });
}

/** The video's words: each clip's words shifted by the clip's start (the clips play back to back). */
export function joinClipWords(clips: { clip: number; words: SpokenWord[]; durationSeconds: number }[]): VideoWord[] {
  const joined: VideoWord[] = [];
  let offset = 0;
  for (const { clip, words, durationSeconds } of clips) {
    for (const word of words) {
      // A word is never placed past its clip's end, so it cannot reach into the next clip.
      if (word.startSeconds >= durationSeconds) continue;
      const end = Math.min(word.endSeconds, durationSeconds);
      joined.push({ text: word.text, start: round(word.startSeconds + offset), end: round(end + offset), clip });
    }
    offset += durationSeconds;
  }
  return joined;
}

/** The words file: a JSON list of `{ text, start, end, clip }`. */
export const toWordsJson = (words: VideoWord[]) => JSON.stringify(words);
