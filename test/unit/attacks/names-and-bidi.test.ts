/**
 * Names held NUL and ESC (a template's, a clip's, a bot's), and U+202E (right-to-left override) was taken anywhere:
 * one reverses every character drawn after it, in burned captions and overlays. Control characters are refused in
 * every name as in text, and bidirectional overrides and isolates everywhere, each with the field's path.
 */
import { describe, expect, it } from 'vitest';
import { parsePutBot } from '#domain/account-bot-request';
import { parseCreateVideo } from '#domain/create-request';
import { InvalidRequestError } from '#domain/errors';
import { parseLexicon } from '#domain/lexicon';
import { parseTemplate } from '#domain/templates';

const problemsOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof InvalidRequestError) return error.problems;
    throw error;
  }
  return [];
};

const BIDI = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
const CONTROLS = ['\u0000', '\u001b', '\u007f', '\u0085', '\n'];
const clip = (fields: Record<string, unknown>) => ({ bot_uid: 'bot_ava', text: 'Hello there.', ...fields });
const create = (fields: Record<string, unknown>) => () => parseCreateVideo({ webhook: 'https://example.com/h', clips: [clip(fields)] });

describe('names and text that would draw reversed or cut', () => {
  it.each(CONTROLS)('refuses control character %j in a template, clip and bot name, naming each', (c) => {
    expect(problemsOf(() => parseTemplate('outreach', { name: `Sales${c}x`, clips: [clip({})] }))).toEqual([
      { path: 'name', message: expect.stringMatching(/control characters/) },
    ]);
    expect(problemsOf(create({ clip_name: `Intro${c}x` }))).toEqual([
      { path: 'clips[0].clip_name', message: expect.stringMatching(/control characters/) },
    ]);
    expect(
      problemsOf(() => parsePutBot('my-bot', { name: `Ava${c}x`, image_url: 'https://example.com/a.png' }, {}, { polly: false })),
    ).toContainEqual({
      path: 'name',
      message: expect.stringMatching(/control characters/),
    });
  });

  it.each(BIDI.map((c) => [c.codePointAt(0)!.toString(16).toUpperCase(), c]))('refuses U+%s everywhere text is drawn or named', (_, c) => {
    const bidi = expect.stringMatching(/bidirectional/);
    expect(problemsOf(create({ text: `Price: ${c}001$` }))).toEqual([{ path: 'clips[0].text', message: bidi }]);
    expect(problemsOf(create({ clip_name: `a${c}b` }))).toEqual([{ path: 'clips[0].clip_name', message: bidi }]);
    expect(problemsOf(create({ overlays: [{ type: 'text', text: `Sale ${c}ends`, style: 'title' }] }))).toEqual([
      { path: 'clips[0].overlays[0].text', message: bidi },
    ]);
    expect(problemsOf(() => parseTemplate('outreach', { name: `x${c}y`, clips: [clip({})] }))).toEqual([{ path: 'name', message: bidi }]);
    expect(problemsOf(() => parsePutBot('my-bot', { name: `x${c}y`, image_url: 'https://example.com/a.png' }, {}, { polly: false }))).toContainEqual({
      path: 'name',
      message: bidi,
    });
    expect(problemsOf(() => parseLexicon({ entries: [{ word: 'vidbot', say: `vid${c} bot` }] }))).toEqual([
      { path: 'entries[0].say', message: bidi },
    ]);
  });

  it('keeps right-to-left scripts, which need no override: Hebrew and Arabic text and names pass', () => {
    expect(problemsOf(create({ text: 'שלום עולם', clip_name: 'مرحبا' }))).toEqual([]);
  });
});
