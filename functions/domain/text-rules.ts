/**
 * What text a caller gives (a clip's words, an overlay's text, a template's value) may hold: any script, line
 * breaks and tabs, but no other control character. A NUL ends the text for the subtitle renderer (libass reads its
 * script as a C string: every caption and overlay after it would vanish), and the others draw nothing or garble.
 * A name (a clip's, a bot's, a template's, a lexicon's word) is one line: no control character at all. Nowhere a
 * bidirectional override or isolate: one U+202E reverses every character drawn after it, so burned captions and
 * overlays would read backwards (right-to-left scripts need none of them: their direction is in the letters).
 */
import { z } from 'zod';

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
const HIDDEN_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/u;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
const NAME_CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
/** Left-to-right/right-to-left embeddings and overrides (U+202A-U+202E) and isolates (U+2066-U+2069). */
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/u;

const CONTROL_MESSAGE = 'must not hold control characters (only line breaks and tabs)';
const NAME_CONTROL_MESSAGE = 'must not hold control characters or line breaks';
const BIDI_MESSAGE = 'must not hold bidirectional overrides or isolates (U+202A to U+202E, U+2066 to U+2069): they reverse the text as drawn';

/** What is wrong with a caller's text, or undefined. */
export const textProblem = (text: string): string | undefined =>
  HIDDEN_CONTROL.test(text) ? CONTROL_MESSAGE : BIDI_CONTROL.test(text) ? BIDI_MESSAGE : undefined;

/** What is wrong with a caller's name (one line), or undefined. */
export const nameProblem = (name: string): string | undefined =>
  NAME_CONTROL.test(name) ? NAME_CONTROL_MESSAGE : BIDI_CONTROL.test(name) ? BIDI_MESSAGE : undefined;

/** Adds the problem `check` finds in a string to a zod schema's issues. */
export const refuseWith =
  (check: (value: string) => string | undefined) =>
  (value: string, ctx: z.RefinementCtx): void => {
    const problem = check(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  };

/** A name as callers give one: trimmed, at most `maxChars`, one line of characters that draw as written. */
export const nameSchema = (maxChars: number) => z.string().trim().max(maxChars).superRefine(refuseWith(nameProblem));
