/**
 * SSML-lite: the markup a clip's text may carry, parsed once into a neutral form that the validator, every speech
 * engine and the captions read. Three tags:
 *
 * - `<break time="500ms"/>` (or `1s`, `1.5s`): a silence of that length;
 * - `<emphasis>…</emphasis>`, optionally `level="strong|moderate|reduced"`: said with stress;
 * - `<say-as interpret-as="characters">…</say-as>`: spelled letter by letter ("API" is "A P I").
 *
 * `&lt; &gt; &amp; &quot; &apos;` are read as the character they name. A `<` that is not followed by a letter or
 * `/` ("3 < 5", "<3") and an `&` that starts none of those five are plain text. Anything else that looks like a tag
 * is refused, with a message naming it. Pure: no I/O.
 */

const EMPHASIS_LEVELS = ['strong', 'moderate', 'reduced'] as const;
export type EmphasisLevel = (typeof EMPHASIS_LEVELS)[number];
const TAGS = ['break', 'emphasis', 'say-as'] as const;

export const SPEECH_MARKUP_LIMITS = {
  /** One break's longest silence. */
  maxBreakSeconds: 5,
  /** All of a clip's breaks together. */
  maxTotalBreakSeconds: 20,
  /** Breaks in one clip (each starts a new phrase for espeak-ng, which is synthesised on its own). */
  maxBreaks: 20,
} as const;

/** A stretch of text said one way. Offsets are into `shown` (UTF-16, end exclusive). */
export interface TextRun {
  kind: 'text';
  start: number;
  end: number;
  emphasis?: EmphasisLevel;
  /** Spelled letter by letter (say-as characters). */
  spell?: boolean;
}
export interface BreakRun {
  kind: 'break';
  seconds: number;
}
export type SpeechRun = TextRun | BreakRun;

export interface SpeechMarkup {
  /** The text as written, without its tags, entities read: what captions show and what words point into. */
  shown: string;
  /** The text runs and breaks, in order. Text runs never overlap and cover only `shown`'s characters. */
  runs: SpeechRun[];
}

/** Markup that is not allowed; its message is in the API's words. */
export class SpeechMarkupError extends Error {}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
/** A tag: `<name attr="v" …>`, `</name>` or `<name …/>`. Names as XML spells them. */
const TAG = /^<(\/?)([A-Za-z][\w:.-]*)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"<>]*"|'[^'<>]*'))*)\s*(\/?)>/;
const ATTRIBUTE = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const DURATION = /^(\d{1,5}(?:\.\d{1,3})?)(ms|s)$/;

const describeTag = (raw: string) => (raw.length > 40 ? `${raw.slice(0, 40)}…` : raw);

/** Parses a clip's text; throws SpeechMarkupError for markup it does not allow. */
export function parseSpeechMarkup(text: string): SpeechMarkup {
  let shown = '';
  const runs: SpeechRun[] = [];
  const open: { name: 'emphasis' | 'say-as'; level?: EmphasisLevel }[] = [];
  let runStart = 0;
  let breaks = 0;
  let breakSeconds = 0;
  const style = () => {
    const emphasis = open.find((o) => o.name === 'emphasis');
    const spell = open.some((o) => o.name === 'say-as');
    return { ...(emphasis && { emphasis: emphasis.level ?? 'moderate' }), ...(spell && { spell: true }) };
  };
  const closeRun = () => {
    if (shown.length > runStart) runs.push({ kind: 'text', start: runStart, end: shown.length, ...style() });
    runStart = shown.length;
  };

  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '&') {
      const entity = /^&(lt|gt|amp|quot|apos);/.exec(text.slice(i, i + 6));
      shown += entity ? ENTITIES[entity[1]!] : '&';
      i += entity ? entity[0].length : 1;
      continue;
    }
    if (c !== '<' || !/[A-Za-z/]/.test(text[i + 1] ?? '')) {
      shown += c;
      i++;
      continue;
    }
    const rest = text.slice(i);
    const name = /^<\/?([A-Za-z][\w:.-]*)/.exec(rest)?.[1];
    if (name !== undefined && !(TAGS as readonly string[]).includes(name))
      throw new SpeechMarkupError(`unknown tag <${name}>; allowed: ${TAGS.join(', ')}`);
    const tag = TAG.exec(rest);
    if (!tag) {
      const end = rest.indexOf('>');
      throw new SpeechMarkupError(
        name === undefined
          ? `"${describeTag(end >= 0 ? rest.slice(0, end + 1) : rest)}" is not a tag; write &lt; for a "<" followed by a letter or "/"`
          : `malformed tag "${describeTag(end >= 0 ? rest.slice(0, end + 1) : rest)}": write attributes as name="value" and close the tag with ">"`,
      );
    }
    i += tag[0].length;
    const [, closing, tagName, attributeText, selfClosing] = tag as unknown as [string, string, (typeof TAGS)[number], string, string];
    const attributes = new Map<string, string>();
    for (const a of attributeText.matchAll(ATTRIBUTE)) {
      // XML forbids a repeated attribute, and engines disagree on which one wins: `time="6s" time="1s"`.
      if (attributes.has(a[1]!)) throw new SpeechMarkupError(`attribute ${a[1]} is given twice on <${tagName}>`);
      attributes.set(a[1]!, a[2] ?? a[3] ?? '');
    }
    const allowOnly = (allowed: string[]) => {
      for (const key of attributes.keys())
        if (!allowed.includes(key))
          throw new SpeechMarkupError(`unknown attribute ${key} on <${tagName}>; allowed: ${allowed.length ? allowed.join(', ') : 'none'}`);
    };

    if (tagName === 'break') {
      if (closing || !selfClosing) throw new SpeechMarkupError('<break> takes no content: write it as <break time="500ms"/>');
      if (open.some((o) => o.name === 'say-as')) throw new SpeechMarkupError('<break/> cannot be inside <say-as>');
      allowOnly(['time']);
      const seconds = durationSeconds(attributes.get('time'));
      breaks++;
      breakSeconds += seconds;
      if (breaks > SPEECH_MARKUP_LIMITS.maxBreaks) throw new SpeechMarkupError(`at most ${SPEECH_MARKUP_LIMITS.maxBreaks} breaks in a clip`);
      if (breakSeconds > SPEECH_MARKUP_LIMITS.maxTotalBreakSeconds + 1e-9)
        throw new SpeechMarkupError(`the breaks of a clip add up to at most ${SPEECH_MARKUP_LIMITS.maxTotalBreakSeconds} s`);
      closeRun();
      // A break parts words: the shown text gets a space there unless it has one.
      if (shown && !/\s$/u.test(shown) && !/^\s/u.test(text.slice(i))) {
        shown += ' ';
        runStart = shown.length;
      }
      runs.push({ kind: 'break', seconds });
      continue;
    }

    if (selfClosing) throw new SpeechMarkupError(`<${tagName}/> is empty: write <${tagName}>…</${tagName}> around the words`);
    if (closing) {
      if (attributeText.trim()) throw new SpeechMarkupError(`</${tagName}> takes no attributes`);
      const innermost = open[open.length - 1];
      if (innermost?.name !== tagName)
        throw new SpeechMarkupError(innermost ? `</${tagName}> closes nothing: <${innermost.name}> is still open` : `</${tagName}> closes nothing`);
      closeRun();
      open.pop();
      continue;
    }
    if (open.some((o) => o.name === 'say-as')) throw new SpeechMarkupError(`<${tagName}> cannot be inside <say-as>`);
    if (tagName === 'emphasis') {
      if (open.some((o) => o.name === 'emphasis')) throw new SpeechMarkupError('<emphasis> cannot be inside another <emphasis>');
      allowOnly(['level']);
      const level = attributes.get('level');
      if (level !== undefined && !(EMPHASIS_LEVELS as readonly string[]).includes(level))
        throw new SpeechMarkupError(`<emphasis level="${describeTag(level)}">: level must be one of ${EMPHASIS_LEVELS.join(', ')}`);
      closeRun();
      open.push({ name: 'emphasis', ...(level !== undefined && { level: level as EmphasisLevel }) });
    } else {
      allowOnly(['interpret-as']);
      const as = attributes.get('interpret-as');
      if (as !== 'characters')
        throw new SpeechMarkupError(
          as === undefined
            ? '<say-as> needs interpret-as="characters"'
            : `<say-as interpret-as="${describeTag(as)}">: only "characters" is supported`,
        );
      closeRun();
      open.push({ name: 'say-as' });
    }
  }
  if (open.length) throw new SpeechMarkupError(`<${open[open.length - 1]!.name}> is never closed`);
  closeRun();
  return { shown, runs };
}

function durationSeconds(value: string | undefined): number {
  if (value === undefined) throw new SpeechMarkupError('<break/> needs a time, e.g. <break time="500ms"/> or <break time="1.5s"/>');
  const match = DURATION.exec(value.trim());
  if (!match) throw new SpeechMarkupError(`<break time="${describeTag(value)}">: time must be milliseconds ("500ms") or seconds ("1.5s")`);
  const seconds = Number(match[1]) / (match[2] === 'ms' ? 1000 : 1);
  if (seconds > SPEECH_MARKUP_LIMITS.maxBreakSeconds)
    throw new SpeechMarkupError(`<break time="${value}">: a break lasts at most ${SPEECH_MARKUP_LIMITS.maxBreakSeconds} s`);
  return seconds;
}

/**
 * Text written into a clip's text as data (a template variable's value): its `&`, `<` and `>` escaped, so that it is
 * said and shown as written, never read as markup.
 */
export const escapeSpeechText = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The text as shown (tags removed, entities read), or the text itself if its markup is invalid (validation refuses it earlier). */
export function shownText(text: string): string {
  try {
    return parseSpeechMarkup(text).shown;
  } catch {
    return text;
  }
}

/** What is wrong with the markup of `text`, if anything (the validator's message). */
export function speechMarkupProblem(text: string): string | undefined {
  try {
    parseSpeechMarkup(text);
    return undefined;
  } catch (error) {
    if (error instanceof SpeechMarkupError) return error.message;
    throw error;
  }
}
