/**
 * Captions: the words a clip's voice says, with their times, grouped into cues of at most two lines of at most
 * 42 characters (the common broadcast and streaming rule), in the clip's own text; and the WebVTT and SubRip
 * files of a video's cues. Pure: no I/O.
 *
 * A clip's cues are made from that clip's words only, so no cue ever spans two clips; a video's cues are its
 * clips' cues, each shifted by where its clip starts in the joined video.
 */
import { z } from 'zod';
import type { SpokenWord } from './spoken-words.ts';

export const CAPTION_LIMITS = { maxLines: 2, maxLineChars: 42 } as const;

/** A word the voice says: where it is in the clip's text (UTF-16 offsets, end exclusive) and when, in seconds. */
export interface TimedWord {
  start: number;
  end: number;
  startSeconds: number;
  endSeconds: number;
}

/** One caption: its lines (each at most maxLineChars characters) and when it shows, in seconds. */
export interface Cue {
  startSeconds: number;
  endSeconds: number;
  lines: string[];
}

/** A cue shows for at least this long, unless the next one starts sooner. */
const MIN_CUE_SECONDS = 1.2;
/** A silence this long between two words starts a new cue. */
const PAUSE_SECONDS = 0.9;
/** Ends a sentence: the cue closes there, so a caption does not run one sentence into the next. */
const SENTENCE_END = /[.!?…。！？]["'”’»)\]]*$/u;

const length = (s: string) => [...s].length;

interface Token {
  text: string;
  /** The clip's text has whitespace before it (CJK text often has none: no space is invented). */
  spaced: boolean;
  startSeconds: number;
  endSeconds: number;
}

/** A run of text longer than a line (a long URL, CJK without spaces) is cut into line-sized pieces. */
function pieces(text: string): string[] {
  const chars = [...text];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += CAPTION_LIMITS.maxLineChars) out.push(chars.slice(i, i + CAPTION_LIMITS.maxLineChars).join(''));
  return out;
}

/**
 * The tokens shown: each word with the punctuation around it, exactly as the clip's text has it (whitespace
 * runs between words become one space). Text before the first word joins it; text after a word joins it.
 */
function tokensOf(text: string, words: TimedWord[]): Token[] {
  const sorted = [...words].filter((w) => w.end > w.start).sort((a, b) => a.start - b.start);
  const tokens: Token[] = [];
  sorted.forEach((word, i) => {
    const from = i === 0 ? 0 : word.start;
    const to = i === sorted.length - 1 ? text.length : Math.max(word.end, sorted[i + 1]!.start);
    const raw = text.slice(from, to);
    // Spaced if white space comes right before the word: text between two words that is no word of its own (the
    // first "[" of "[[", which espeak-ng is given apart) joined the word before, and this word is glued to it.
    const spaced = i > 0 && word.start > sorted[i - 1]!.end && /\s/u.test(text[word.start - 1]!);
    const shown = raw.trim().replace(/\s+/gu, ' ');
    if (!shown) return;
    // A token may itself hold spaces (words the engine merged); each part is placed on its own.
    const parts = shown.split(' ').flatMap((part, j) => pieces(part).map((p, k) => ({ p, spaced: j > 0 || (k === 0 ? spaced : false) })));
    const span = (word.endSeconds - word.startSeconds) / parts.length;
    for (const [j, { p, spaced: s }] of parts.entries())
      tokens.push({ text: p, spaced: s, startSeconds: word.startSeconds + j * span, endSeconds: word.startSeconds + (j + 1) * span });
  });
  return tokens;
}

/** Ends a clause: a full cue is better cut there than in the middle of one. */
const CLAUSE_END = /[,;:،؛，；：]["'”’»)\]]*$/u;

/** Tokens laid out in lines of at most maxLineChars, filled word by word; undefined past maxLines. */
function linesOf(tokens: Token[]): string[] | undefined {
  const lines: string[] = [];
  for (const token of tokens) {
    const last = lines.length - 1;
    const joined = last >= 0 ? lines[last]! + (token.spaced ? ' ' : '') + token.text : '';
    if (last >= 0 && length(joined) <= CAPTION_LIMITS.maxLineChars) lines[last] = joined;
    else if (lines.length < CAPTION_LIMITS.maxLines) lines.push(token.text);
    else return undefined;
  }
  return lines;
}

/**
 * Groups a clip's timed words into cues: lines filled word by word up to maxLineChars, at most maxLines per
 * cue; a new cue after a sentence's end or a long pause; a cue that fills up mid-sentence is cut after the last
 * clause end of its second half, if it has one (its tail opens the next cue). Times are shifted by
 * `offsetSeconds` (where the speech starts in the clip: after its entry transition). Cues are in order and never
 * overlap.
 */
export function cuesFromWords(text: string, words: TimedWord[], offsetSeconds = 0): Cue[] {
  const groups: Token[][] = [];
  let current: Token[] = [];
  let previous: Token | undefined;
  for (const token of tokensOf(text, words)) {
    const pause = previous ? token.startSeconds - previous.endSeconds >= PAUSE_SECONDS : false;
    const sentenceEnded = previous ? SENTENCE_END.test(previous.text) : false;
    if (current.length && (pause || sentenceEnded)) {
      groups.push(current);
      current = [];
    }
    // Full: cut (each cut leaves a shorter tail, so this ends; one token always fits).
    while (current.length && !linesOf([...current, token])) {
      let cut = current.length;
      for (let i = current.length - 2; i >= Math.floor(current.length / 2); i--) {
        if (CLAUSE_END.test(current[i]!.text)) {
          cut = i + 1;
          break;
        }
      }
      groups.push(current.slice(0, cut));
      current = current.slice(cut);
    }
    current.push(token);
    previous = token;
  }
  if (current.length) groups.push(current);
  return groups.map((tokens, i) => {
    const start = tokens[0]!.startSeconds;
    const end = tokens[tokens.length - 1]!.endSeconds;
    const next = groups[i + 1]?.[0]?.startSeconds ?? Infinity;
    const shown = Math.min(Math.max(end, start + MIN_CUE_SECONDS), next);
    return { startSeconds: round(start + offsetSeconds), endSeconds: round(Math.max(shown, start + 0.001) + offsetSeconds), lines: linesOf(tokens)! };
  });
}

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

/** A video's cues: each clip's cues shifted by the clip's start (the clips play back to back). */
export function joinClipCues(clips: { cues: Cue[]; durationSeconds: number }[]): Cue[] {
  const joined: Cue[] = [];
  let offset = 0;
  for (const clip of clips) {
    for (const cue of clip.cues) {
      // A cue never outlasts its clip, so it cannot reach into the next one.
      const end = Math.min(cue.endSeconds, clip.durationSeconds);
      if (end > cue.startSeconds) joined.push({ startSeconds: round(cue.startSeconds + offset), endSeconds: round(end + offset), lines: cue.lines });
    }
    offset += clip.durationSeconds;
  }
  return joined;
}

export const VTT_CONTENT_TYPE = 'text/vtt; charset=utf-8';
export const SRT_CONTENT_TYPE = 'application/x-subrip; charset=utf-8';

/** A clip's cues and spoken words as stored beside its render (see bucket-layout cuesObjectKey). */
export const CUES_CONTENT_TYPE = 'application/json';
const seconds = z.number().nonnegative();
const clipCuesSchema = z.object({
  cues: z.array(z.object({ startSeconds: seconds, endSeconds: seconds, lines: z.array(z.string()).max(CAPTION_LIMITS.maxLines) })),
  // Absent in a clip stored before its words were kept beside it (spoken-words.ts wordsOfCues stands in).
  words: z.array(z.object({ text: z.string(), startSeconds: seconds, endSeconds: seconds })).optional(),
});
export const serialiseClipCues = (cues: Cue[], words: SpokenWord[]) => JSON.stringify({ cues, words });
export const parseClipCues = (json: string): { cues: Cue[]; words?: SpokenWord[] } => clipCuesSchema.parse(JSON.parse(json));

/** hh:mm:ss.ttt (WebVTT) or hh:mm:ss,ttt (SubRip). */
function timestamp(seconds: number, separator: '.' | ','): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(Math.floor(ms / 3600000))}:${pad(Math.floor(ms / 60000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${separator}${pad(ms % 1000, 3)}`;
}

/** An invisible break (ZERO WIDTH SPACE): the text looks the same, and no reader takes it for syntax. */
const ZWSP = '\u200b';

/**
 * A cue's line as WebVTT payload: `<` and `&` start markup and `-->` may not appear, so they are escaped (a
 * player shows the text as written); players that turn WebVTT into ASS (ffmpeg, libass) would take `\N` for a
 * line break, so a backslash is followed by an invisible break. Lines never hold a line break (cuesFromWords
 * joins words with spaces).
 */
const vttText = (line: string) => line.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\\/g, `\\${ZWSP}`);
/**
 * A cue's line as SubRip text, which has no escapes of its own: readers take `-->` anywhere for a timing line (a
 * caller's "00:00:00,000 --> 00:09:59,000" would start a cue of its own) and `<b>`, `<font>` for HTML tags, and
 * players that turn SubRip into ASS (ffmpeg, mpv, libass) take `{…}` for an override block and `\N` for a line
 * break. An invisible break inside `-->`, after `<` and after `\`, and ASS's own escape for braces (`\{`, `\}`)
 * keep each as text.
 */
const srtText = (line: string) =>
  line
    .replace(/-->/g, `--${ZWSP}>`)
    .replace(/</g, `<${ZWSP}`)
    .replace(/\\/g, `\\${ZWSP}`)
    .replace(/[{}]/g, (brace) => `\\${brace}`);

/** The WebVTT file (W3C WebVTT: signature, blank line, then cues with `-->` timings, separated by blank lines). */
export function toWebVtt(cues: Cue[]): string {
  const blocks = cues.map(
    (cue, i) => `${i + 1}\n${timestamp(cue.startSeconds, '.')} --> ${timestamp(cue.endSeconds, '.')}\n${cue.lines.map(vttText).join('\n')}`,
  );
  return `WEBVTT\n\n${blocks.map((b) => `${b}\n\n`).join('')}`;
}

/** The SubRip file: numbered cues from 1, `hh:mm:ss,ttt --> hh:mm:ss,ttt`, text, a blank line; CRLF, as players expect. */
export function toSrt(cues: Cue[]): string {
  return cues
    .map((cue, i) =>
      [String(i + 1), `${timestamp(cue.startSeconds, ',')} --> ${timestamp(cue.endSeconds, ',')}`, ...cue.lines.map(srtText), '', ''].join('\r\n'),
    )
    .join('');
}

/**
 * Scripts the caption font (Inter) draws: Latin, Greek, Cyrillic, with the common punctuation, digits and
 * combining marks. The bundled ffmpeg's libass has no HarfBuzz (FriBidi only) and the font has no Arabic,
 * Hebrew or CJK glyphs, so text in other scripts is not burned in (its caption files are made all the same).
 */
export const isBurnable = (text: string) =>
  /^[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Common}\p{Script=Inherited}]*$/u.test(text);
