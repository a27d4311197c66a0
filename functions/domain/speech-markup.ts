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

type TagName = (typeof TAGS)[number];

/** One tag as written: `</name>` is closing, `<name/>` self-closing; its attributes read once. */
interface Tag {
  length: number;
  closing: boolean;
  selfClosing: boolean;
  name: TagName;
  attributeText: string;
  attributes: Map<string, string>;
}

/** What the scan has made so far: the shown text, the runs, the tags still open and the breaks counted. */
interface Scan {
  shown: string;
  runs: SpeechRun[];
  open: { name: 'emphasis' | 'say-as'; level?: EmphasisLevel }[];
  runStart: number;
  breaks: number;
  breakSeconds: number;
}

/** Parses a clip's text; throws SpeechMarkupError for markup it does not allow. */
export function parseSpeechMarkup(text: string): SpeechMarkup {
  const scan: Scan = { shown: '', runs: [], open: [], runStart: 0, breaks: 0, breakSeconds: 0 };
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '&') {
      const entity = /^&(lt|gt|amp|quot|apos);/.exec(text.slice(i, i + 6));
      scan.shown += entity ? ENTITIES[entity[1]!] : '&';
      i += entity ? entity[0].length : 1;
      continue;
    }
    if (c !== '<' || !/[A-Za-z/]/.test(text[i + 1] ?? '')) {
      scan.shown += c;
      i++;
      continue;
    }
    const tag = readTag(text.slice(i));
    i += tag.length;
    if (tag.name === 'break') takeBreak(scan, tag, text.slice(i));
    else if (tag.selfClosing) throw new SpeechMarkupError(`<${tag.name}/> is empty: write <${tag.name}>…</${tag.name}> around the words`);
    else if (tag.closing) closeTag(scan, tag);
    else openTag(scan, tag);
  }
  if (scan.open.length) throw new SpeechMarkupError(`<${scan.open[scan.open.length - 1]!.name}> is never closed`);
  closeRun(scan);
  return { shown: scan.shown, runs: scan.runs };
}

/** The tag at the start of `rest` (which starts with `<` and a letter or `/`), or the error naming what it is not. */
function readTag(rest: string): Tag {
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
  const [whole, closing, tagName, attributeText, selfClosing] = tag as unknown as [string, string, TagName, string, string];
  const attributes = new Map<string, string>();
  for (const a of attributeText.matchAll(ATTRIBUTE)) {
    // XML forbids a repeated attribute, and engines disagree on which one wins: `time="6s" time="1s"`.
    if (attributes.has(a[1]!)) throw new SpeechMarkupError(`attribute ${a[1]} is given twice on <${tagName}>`);
    attributes.set(a[1]!, a[2] ?? a[3] ?? '');
  }
  return { length: whole.length, closing: !!closing, selfClosing: !!selfClosing, name: tagName, attributeText, attributes };
}

function allowOnly(tag: Tag, allowed: string[]) {
  for (const key of tag.attributes.keys())
    if (!allowed.includes(key))
      throw new SpeechMarkupError(`unknown attribute ${key} on <${tag.name}>; allowed: ${allowed.length ? allowed.join(', ') : 'none'}`);
}

/** How the text so far is said: the innermost emphasis's level, spelled inside say-as. */
function style(scan: Scan) {
  const emphasis = scan.open.find((o) => o.name === 'emphasis');
  const spell = scan.open.some((o) => o.name === 'say-as');
  return { ...(emphasis && { emphasis: emphasis.level ?? 'moderate' }), ...(spell && { spell: true }) };
}

/** Ends the current text run (if it has characters) at the shown text's end. */
function closeRun(scan: Scan) {
  if (scan.shown.length > scan.runStart) scan.runs.push({ kind: 'text', start: scan.runStart, end: scan.shown.length, ...style(scan) });
  scan.runStart = scan.shown.length;
}

/** `<break time="…"/>`: a silence, counted against the clip's limits; `after` is the text that follows it. */
function takeBreak(scan: Scan, tag: Tag, after: string) {
  if (tag.closing || !tag.selfClosing) throw new SpeechMarkupError('<break> takes no content: write it as <break time="500ms"/>');
  if (scan.open.some((o) => o.name === 'say-as')) throw new SpeechMarkupError('<break/> cannot be inside <say-as>');
  allowOnly(tag, ['time']);
  const seconds = durationSeconds(tag.attributes.get('time'));
  scan.breaks++;
  scan.breakSeconds += seconds;
  if (scan.breaks > SPEECH_MARKUP_LIMITS.maxBreaks) throw new SpeechMarkupError(`at most ${SPEECH_MARKUP_LIMITS.maxBreaks} breaks in a clip`);
  if (scan.breakSeconds > SPEECH_MARKUP_LIMITS.maxTotalBreakSeconds + 1e-9)
    throw new SpeechMarkupError(`the breaks of a clip add up to at most ${SPEECH_MARKUP_LIMITS.maxTotalBreakSeconds} s`);
  closeRun(scan);
  // A break parts words: the shown text gets a space there unless it has one.
  if (scan.shown && !/\s$/u.test(scan.shown) && !/^\s/u.test(after)) {
    scan.shown += ' ';
    scan.runStart = scan.shown.length;
  }
  scan.runs.push({ kind: 'break', seconds });
}

/** `</emphasis>` or `</say-as>`: closes the innermost open tag, which must be the same. */
function closeTag(scan: Scan, tag: Tag) {
  if (tag.attributeText.trim()) throw new SpeechMarkupError(`</${tag.name}> takes no attributes`);
  const innermost = scan.open[scan.open.length - 1];
  if (innermost?.name !== tag.name)
    throw new SpeechMarkupError(innermost ? `</${tag.name}> closes nothing: <${innermost.name}> is still open` : `</${tag.name}> closes nothing`);
  closeRun(scan);
  scan.open.pop();
}

/** `<emphasis level="…">` or `<say-as interpret-as="characters">`: a new way of saying what follows. */
function openTag(scan: Scan, tag: Tag) {
  if (scan.open.some((o) => o.name === 'say-as')) throw new SpeechMarkupError(`<${tag.name}> cannot be inside <say-as>`);
  if (tag.name === 'emphasis') {
    if (scan.open.some((o) => o.name === 'emphasis')) throw new SpeechMarkupError('<emphasis> cannot be inside another <emphasis>');
    allowOnly(tag, ['level']);
    const level = tag.attributes.get('level');
    if (level !== undefined && !(EMPHASIS_LEVELS as readonly string[]).includes(level))
      throw new SpeechMarkupError(`<emphasis level="${describeTag(level)}">: level must be one of ${EMPHASIS_LEVELS.join(', ')}`);
    closeRun(scan);
    scan.open.push({ name: 'emphasis', ...(level !== undefined && { level: level as EmphasisLevel }) });
    return;
  }
  allowOnly(tag, ['interpret-as']);
  const as = tag.attributes.get('interpret-as');
  if (as !== 'characters')
    throw new SpeechMarkupError(
      as === undefined ? '<say-as> needs interpret-as="characters"' : `<say-as interpret-as="${describeTag(as)}">: only "characters" is supported`,
    );
  closeRun(scan);
  scan.open.push({ name: 'say-as' });
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
