/**
 * Text as an engine is sent it, built piece by piece, with where each of its UTF-16 units stands in the clip's
 * shown text (domain/lexicon.ts SpeechScript): so that word offsets an engine reports (or alignment finds) in
 * what was spoken point back into the shown text, through whitespace squeezing, escapes, markup and lexicon
 * replacements.
 */
import type { TimedWord } from '#domain/captions';

type Span = [number, number];

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this finds, to skip them
const BLANK = /[\u0000-\u001f\u007f]|\s/u;
const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/**
 * A half of a surrogate pair without its other half: not a character. An engine given one reads it with the unit after
 * it (espeak-ng's UTF-8 encoding takes the next unit as its pair), and every word after it is placed one unit early.
 */
const isLoneSurrogate = (text: string, i: number): boolean => {
  const unit = text.charCodeAt(i);
  if (unit >= 0xd800 && unit <= 0xdbff) {
    const next = text.charCodeAt(i + 1);
    return !(next >= 0xdc00 && next <= 0xdfff);
  }
  if (unit >= 0xdc00 && unit <= 0xdfff) {
    const before = text.charCodeAt(i - 1);
    return !(before >= 0xd800 && before <= 0xdbff);
  }
  return false;
};

export class SpokenText {
  text = '';
  /** Per unit of `text`: the span of the shown text it stands for; undefined for markup and spaces. */
  readonly spans: (Span | undefined)[] = [];
  private spoke = false;
  private pendingSpace = false;

  /**
   * Speech: control characters and whitespace runs become one space (none at the start), a lone surrogate becomes
   * U+FFFD, `xml` escapes what XML reads. `spans[i]` is the span of `text[i]`.
   */
  say(text: string, spans: readonly Span[], options: { xml?: boolean } = {}): this {
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if (BLANK.test(c)) {
        if (this.spoke) this.pendingSpace = true;
        continue;
      }
      this.flushSpace();
      const out = isLoneSurrogate(text, i) ? '\ufffd' : options.xml ? (XML_ESCAPES[c] ?? c) : c;
      this.text += out;
      for (let u = 0; u < out.length; u++) this.spans.push(spans[i]);
      this.spoke = true;
    }
    return this;
  }

  /** Markup the engine reads (an SSML tag): stands for nothing in the shown text. A pending space goes before it. */
  markup(tag: string): this {
    this.flushSpace();
    this.text += tag;
    for (let u = 0; u < tag.length; u++) this.spans.push(undefined);
    return this;
  }

  /** A word boundary (a space) if anything was said. */
  space(): this {
    if (this.spoke) this.pendingSpace = true;
    return this;
  }

  private flushSpace() {
    if (!this.pendingSpace) return;
    this.text += ' ';
    this.spans.push(undefined);
    this.pendingSpace = false;
  }

  /**
   * Words found in `text` moved into the shown text: each covers the spans of its units; words that stand for the
   * same written word (a replacement said in two words) become one, timed from the first's start to the last's end.
   */
  wordsInShown(words: TimedWord[]): TimedWord[] {
    const mapped: TimedWord[] = [];
    for (const word of words) {
      let start = Infinity;
      let end = -Infinity;
      for (let u = word.start; u < word.end; u++) {
        const span = this.spans[u];
        if (span) {
          start = Math.min(start, span[0]);
          end = Math.max(end, span[1]);
        }
      }
      if (end > start) mapped.push({ ...word, start, end });
    }
    mapped.sort((a, b) => a.start - b.start || a.startSeconds - b.startSeconds);
    const merged: TimedWord[] = [];
    for (const word of mapped) {
      const last = merged[merged.length - 1];
      if (last && word.start < last.end) {
        last.end = Math.max(last.end, word.end);
        last.startSeconds = Math.min(last.startSeconds, word.startSeconds);
        last.endSeconds = Math.max(last.endSeconds, word.endSeconds);
      } else merged.push({ ...word });
    }
    return merged;
  }
}
