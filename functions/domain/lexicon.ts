/**
 * An account's pronunciation lexicon (PUT /v1/lexicon): words and how to say them ("vidbot" is said "vid bot").
 * Every engine speaks the replacement while captions keep showing the written word. Matching is whole-word and
 * case-insensitive, in the text as shown (markup removed), never inside `<say-as>` (which is spelled as written).
 * Pure: no I/O.
 */
import { z } from 'zod';
import { InvalidRequestError } from './errors.ts';
import type { LexiconStore } from './ports.ts';
import './zod-messages.ts';
import { type EmphasisLevel, parseSpeechMarkup, type SpeechMarkup, SpeechMarkupError } from './speech-markup.ts';
import { nameProblem, refuseWith } from './text-rules.ts';

const LEXICON_LIMITS = { maxEntries: 500, maxWordChars: 50, maxSayChars: 100 } as const;

export interface LexiconEntry {
  word: string;
  say: string;
}

/** An account's lexicon as stored. */
export interface Lexicon {
  tenantId: string;
  entries: LexiconEntry[];
  updatedAt: string;
}

const SAYABLE = /[\p{L}\p{N}]/u;

const entrySchema = z.strictObject({
  word: z
    .string()
    .trim()
    .min(1)
    .max(LEXICON_LIMITS.maxWordChars)
    .superRefine(refuseWith(nameProblem))
    .refine((w) => !w || SAYABLE.test(w), 'must hold a letter or a digit'),
  say: z
    .string()
    .trim()
    .min(1)
    .max(LEXICON_LIMITS.maxSayChars)
    .superRefine(refuseWith(nameProblem))
    .refine((s) => !/[<>]/.test(s), 'must be plain text: no markup (< or >)')
    .refine((s) => !/\[\[|\]\]/.test(s), 'must be plain text: no phoneme brackets ([[ or ]])')
    .refine((s) => !s || SAYABLE.test(s), 'must hold a letter or a digit'),
});

/**
 * A word's key: its case folded as the matcher's `iu` flags fold it (upper-casing first takes "ſ" to "s", as the
 * matcher does), its spaces squeezed.
 */
const keyOf = (word: string) => word.toUpperCase().toLowerCase().replace(/\s+/gu, ' ');

/** The body of PUT /v1/lexicon: the whole lexicon, words unique whatever their case. */
export const lexiconRequestSchema = z
  .strictObject({
    entries: z
      .array(entrySchema)
      .max(LEXICON_LIMITS.maxEntries, `must have at most ${LEXICON_LIMITS.maxEntries} entries`)
      .describe(`At most ${LEXICON_LIMITS.maxEntries}: each a word (at most ${LEXICON_LIMITS.maxWordChars} characters) and how to say it.`),
  })
  .superRefine((body, ctx) => {
    const seen = new Map<string, number>();
    body.entries.forEach((entry, i) => {
      const first = seen.get(keyOf(entry.word));
      if (first !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['entries', i, 'word'],
          message: `"${entry.word}" is already entries[${first}].word (words are unique whatever their case)`,
        });
      else seen.set(keyOf(entry.word), i);
    });
  });

const issuePath = (path: PropertyKey[]) =>
  path.reduce<string>((acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : acc ? `${acc}.${String(part)}` : String(part)), '');

/** Validates PUT /v1/lexicon's body into its entries (trimmed), or throws InvalidRequestError naming each bad field. */
export function parseLexicon(fields: unknown): LexiconEntry[] {
  const result = lexiconRequestSchema.safeParse(fields);
  if (!result.success)
    throw new InvalidRequestError(
      result.error.issues.flatMap((issue) =>
        issue.code === 'unrecognized_keys'
          ? issue.keys.map((key) => ({
              path: issuePath([...issue.path, key]),
              message: issue.path.length ? 'is not an entry field (word, say)' : 'is not a lexicon field (entries)',
            }))
          : [{ path: issuePath(issue.path) || 'entries', message: issue.message }],
      ),
    );
  return result.data.entries;
}

/** Replaces the account's lexicon (an empty list removes it). */
export async function saveLexicon(tenantId: string, entries: LexiconEntry[], deps: { lexicons: LexiconStore; now: () => Date }): Promise<Lexicon> {
  const lexicon: Lexicon = { tenantId, entries, updatedAt: deps.now().toISOString() };
  if (entries.length) await deps.lexicons.put(lexicon);
  else await deps.lexicons.delete(tenantId);
  return lexicon;
}

/** A letter, digit or mark: what a whole word may not touch on either side. */
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
const SPACE = /\s/u;

/**
 * One character as the matcher compares it: folded as a case-insensitive Unicode pattern folds it (upper-casing
 * first takes "ſ" to "s"), any run of spaces as one " ".
 */
function foldChar(ch: string): string {
  if (SPACE.test(ch)) return ' ';
  const folded = ch.toUpperCase().toLowerCase();
  if (folded.length === ch.length) return folded;
  const lower = ch.toLowerCase();
  return lower.length === ch.length ? lower : ch;
}

interface TrieNode {
  next: Map<string, TrieNode>;
  entry?: LexiconEntry;
}

/** The entries' words, folded character by character, as a trie: a word is found by walking it, never by trying each. */
function trieOf(entries: LexiconEntry[]): TrieNode {
  const root: TrieNode = { next: new Map() };
  for (const entry of entries) {
    let node = root;
    for (const ch of entry.word.trim().split(/\s+/u).join(' ')) {
      const key = foldChar(ch);
      let child = node.next.get(key);
      if (!child) node.next.set(key, (child = { next: new Map() }));
      node = child;
    }
    node.entry ??= entry;
  }
  return root;
}

/**
 * The shown text read once, character by character: at each code unit where a character starts, its folded form,
 * whether it is a word character or a space, and where the next one starts. The walks below only look these up.
 */
interface ReadText {
  folded: string[];
  word: boolean[];
  space: boolean[];
  next: number[];
}

function readText(text: string): ReadText {
  const read: ReadText = { folded: [], word: [], space: [], next: [] };
  for (let i = 0; i < text.length; ) {
    const ch = String.fromCodePoint(text.codePointAt(i)!);
    read.folded[i] = foldChar(ch);
    read.word[i] = WORD_CHAR.test(ch);
    read.space[i] = SPACE.test(ch);
    read.next[i] = i + ch.length;
    i = read.next[i]!;
  }
  return read;
}

/** Whether the character ending just before `i` is a word character (a low surrogate's pair starts one earlier). */
const wordBefore = (read: ReadText, i: number) => i > 0 && (read.word[i - 1] ?? read.word[i - 2] ?? false);

/**
 * The longest entry that is a whole word starting at `start` and ending by `end`: the trie walked along the text,
 * a run of spaces taking one " " step. Each step follows a node, so the walk is at most the longest word long.
 */
function longestAt(read: ReadText, start: number, end: number, root: TrieNode): Replacement | undefined {
  let node: TrieNode | undefined = root;
  let best: Replacement | undefined;
  for (let i = start; node && i < end; ) {
    node = node.next.get(read.folded[i]!);
    if (read.space[i]) while (i < end && read.space[i]) i = read.next[i]!;
    else i = read.next[i]!;
    if (node?.entry && !read.word[i]) best = { start, end: i, entry: node.entry };
  }
  return best;
}

/** A replacement in the shown text: `[start, end)` is said as `say`. */
interface Replacement {
  start: number;
  end: number;
  entry: LexiconEntry;
}

/**
 * Where the lexicon's words occur in the runs spoken as words (not spelled), in order, without overlapping: at each
 * word start, the longest. Whole words are judged in the whole shown text ("vid<emphasis>bot</emphasis>" is the
 * word "vidbot"); a match is kept if it lies inside its run.
 */
function replacementsIn(markup: SpeechMarkup, entries: LexiconEntry[]): Replacement[] {
  if (!entries.length) return [];
  const root = trieOf(entries);
  const read = readText(markup.shown);
  const found: Replacement[] = [];
  for (const run of markup.runs) {
    if (run.kind !== 'text' || run.spell) continue;
    for (let i = run.start; i < run.end; ) {
      const match = wordBefore(read, i) ? undefined : longestAt(read, i, run.end, root);
      if (match) found.push(match);
      i = match ? match.end : (read.next[i] ?? i + 1);
    }
  }
  return found;
}

/**
 * The entries of `entries` that change what `text` (a clip's text, with its markup) says: what a clip's render
 * depends on, and so what its cache key holds. In the lexicon's order.
 */
export function pronunciationsFor(text: string, entries: LexiconEntry[]): LexiconEntry[] {
  if (!entries.length) return [];
  const markup = markupOrPlain(text);
  const used = new Set(replacementsIn(markup, entries).map((r) => r.entry));
  return entries.filter((e) => used.has(e));
}

function markupOrPlain(text: string): SpeechMarkup {
  try {
    return parseSpeechMarkup(text);
  } catch (error) {
    if (!(error instanceof SpeechMarkupError)) throw error;
    return { shown: text, runs: [{ kind: 'text', start: 0, end: text.length }] };
  }
}

/**
 * A piece of speech said one way: `text` is what the voice says, and `spans[i]` where its i-th UTF-16 unit stands
 * in the shown text (a replaced word's every unit stands for the whole written word).
 */
export interface SpokenPiece {
  text: string;
  spans: [number, number][];
  emphasis?: EmphasisLevel;
  spell?: boolean;
}
export type ScriptPart = ({ kind: 'speech' } & SpokenPiece) | { kind: 'break'; seconds: number };

/** What a clip says: the shown text (what captions show and word offsets point into), and its parts in order. */
export interface SpeechScript {
  shown: string;
  parts: ScriptPart[];
}

/**
 * The clip's text (with markup) as speech, the pronunciations applied. Markup the validator would refuse (a clip
 * accepted before markup was read) is said as written.
 */
export function speechScriptOf(text: string, pronunciations: LexiconEntry[] = []): SpeechScript {
  const markup = markupOrPlain(text);
  const replacements = new Map(replacementsIn(markup, pronunciations).map((r) => [r.start, r]));
  const parts: ScriptPart[] = [];
  for (const run of markup.runs) {
    if (run.kind === 'break') {
      parts.push(run);
      continue;
    }
    let spoken = '';
    const spans: [number, number][] = [];
    for (let i = run.start; i < run.end; ) {
      const replacement = replacements.get(i);
      if (replacement) {
        for (let u = 0; u < replacement.entry.say.length; u++) spans.push([replacement.start, replacement.end]);
        spoken += replacement.entry.say;
        i = replacement.end;
      } else {
        spoken += markup.shown[i];
        spans.push([i, i + 1]);
        i++;
      }
    }
    parts.push({
      kind: 'speech',
      text: spoken,
      spans,
      ...(run.emphasis && { emphasis: run.emphasis }),
      ...(run.spell && { spell: true }),
    });
  }
  return { shown: markup.shown, parts };
}
