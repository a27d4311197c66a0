/**
 * An account's pronunciation lexicon (PUT /v1/lexicon): words and how to say them ("vidbot" is said "vid bot").
 * Every engine speaks the replacement while captions keep showing the written word. Matching is whole-word and
 * case-insensitive, in the text as shown (markup removed), never inside `<say-as>` (which is spelled as written).
 * Pure: no I/O.
 */
import { z } from 'zod';
import { InvalidRequest } from './errors.ts';
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

/** Validates PUT /v1/lexicon's body into its entries (trimmed), or throws InvalidRequest naming each bad field. */
export function parseLexicon(fields: unknown): LexiconEntry[] {
  const result = lexiconRequestSchema.safeParse(fields);
  if (!result.success)
    throw new InvalidRequest(
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

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One pattern for all the words: whole words (no letter or digit either side), longest first, any case. */
function matcherOf(entries: LexiconEntry[]): RegExp | undefined {
  if (!entries.length) return undefined;
  const words = [...entries].map((e) => e.word).sort((a, b) => b.length - a.length);
  const alternatives = words.map((w) => w.split(/\s+/u).map(escapeRegExp).join('\\s+'));
  return new RegExp(`(?<![\\p{L}\\p{N}\\p{M}])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}\\p{M}])`, 'giu');
}

/** A replacement in the shown text: `[start, end)` is said as `say`. */
interface Replacement {
  start: number;
  end: number;
  entry: LexiconEntry;
}

/** Where the lexicon's words occur in the runs spoken as words (not spelled), in order. */
function replacementsIn(markup: SpeechMarkup, entries: LexiconEntry[]): Replacement[] {
  const matcher = matcherOf(entries);
  if (!matcher) return [];
  const byKey = new Map(entries.map((e) => [keyOf(e.word), e]));
  // For a match whose key folds otherwise than its entry's: each entry's own whole-word pattern, compiled once.
  let exact: [LexiconEntry, RegExp][] | undefined;
  const entryOf = (word: string) => {
    exact ??= entries.map((e) => [e, new RegExp(`^${matcherOf([e])!.source}$`, 'iu')]);
    return exact.find(([, pattern]) => pattern.test(word))?.[0];
  };
  const found: Replacement[] = [];
  for (const run of markup.runs) {
    if (run.kind !== 'text' || run.spell) continue;
    // Matched in the whole shown text (so "whole word" looks past the run's edges: "vid<emphasis>bot</emphasis>"
    // is the word "vidbot"), kept if inside the run.
    matcher.lastIndex = run.start;
    for (let m = matcher.exec(markup.shown); m && m.index < run.end; m = matcher.exec(markup.shown)) {
      if (m.index + m[0].length > run.end) continue;
      const entry = byKey.get(keyOf(m[0])) ?? entryOf(m[0]);
      if (entry) found.push({ start: m.index, end: m.index + m[0].length, entry });
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
  const replacements = replacementsIn(markup, pronunciations);
  const parts: ScriptPart[] = [];
  for (const run of markup.runs) {
    if (run.kind === 'break') {
      parts.push(run);
      continue;
    }
    let spoken = '';
    const spans: [number, number][] = [];
    for (let i = run.start; i < run.end; ) {
      const replacement = replacements.find((r) => r.start === i);
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
