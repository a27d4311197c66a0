/**
 * What an attacker tried with the text of this round's inputs (an overlay's text, a clip's words and markup, a
 * lexicon, a template value), and what the service does instead: refuses it with the field's path, or says no more
 * than a clip may, before any engine is paid for or crashed.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PollyClient, SynthesizeSpeechCommand } from '@aws-sdk/client-polly';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_BOTS } from '#domain/bot';
import { parseCreateVideo } from '#domain/create-request';
import { InvalidRequestError } from '#domain/errors';
import { parseLexicon, pronunciationsFor, speechScriptOf } from '#domain/lexicon';
import { limits } from '#domain/limits';
import { voiceToSpeak } from '#domain/voices';
import { renderClip, type SpeechEngine } from '#functions/render/engine/index.ts';
import { assLiteral } from '#functions/render/engine/text-overlays.ts';
import { SpokenTextTooLongError } from '#functions/render/engine/types.ts';
import { withoutPhonemeInput } from '#functions/render/speech/espeak.ts';
import { PollySpeechEngine } from '#functions/render/speech/polly.ts';

const problemsOf = (clip: Record<string, unknown>) => {
  try {
    parseCreateVideo({ webhook: 'https://example.com/h', clips: [{ bot_uid: 'bot_ava', text: 'Hi', ...clip }] });
  } catch (error) {
    if (error instanceof InvalidRequestError) return error.problems;
    throw error;
  }
  return [];
};

/** A lexicon that makes a one-letter word a hundred characters long, and a clip of that word a thousand times. */
const multiplied = () => {
  const entries = parseLexicon({ entries: [{ word: 'a', say: `${'supercalifragilistic '.repeat(4)}expialidocious`.slice(0, 100) }] });
  const text = 'a '.repeat(1000).trim();
  return speechScriptOf(text, pronunciationsFor(text, entries));
};

describe('control characters and invisible text', () => {
  it('are refused in an overlay and in a clip, with the path (a NUL cut libass short: every later caption and overlay vanished)', () => {
    for (const text of ['Ada\u0000Lovelace', 'Ada\u001b[31m', 'x\u0085y'])
      expect(problemsOf({ overlays: [{ type: 'text', style: 'lower_third', text }] })).toEqual([
        { path: 'clips[0].overlays[0].text', message: 'must not hold control characters (only line breaks and tabs)' },
      ]);
    for (const text of ['\u200B\u200B', '\u200F'])
      expect(problemsOf({ overlays: [{ type: 'text', style: 'title', text }] })).toEqual([
        { path: 'clips[0].overlays[0].text', message: 'must show something: at least one visible character' },
      ]);
    expect(problemsOf({ text: 'Hello\u0000 there' })).toEqual([
      { path: 'clips[0].text', message: 'must not hold control characters (only line breaks and tabs)' },
    ]);
    // Line breaks and tabs are text.
    expect(problemsOf({ text: 'Hello\tthere,\r\nfriend', overlays: [{ type: 'text', style: 'title', text: 'Two\nlines' }] })).toEqual([]);
  });

  it('never reach the subtitle script: the ASS writer blanks them, and escapes every markup of its own', () => {
    expect(assLiteral('a\u0000b\u001bc')).toBe('a b c');
    for (const text of ['{\\fnArial}x', '{\\p1}m 0 0 l 100 0{\\p0}', 'a\\Nb', 'a\\hb', 'end\\', '{ unbalanced', 'close }', '\\\\N']) {
      const out = assLiteral(text);
      expect(out.replace(/\\[{}]/g, ''), text).not.toMatch(/[{}]/);
      expect(out, text).not.toMatch(/\\(?=[Nnh]|$)/);
    }
  });
});

describe('a lexicon that multiplies what a clip says', () => {
  it('is refused before any speech is made: the render fails as text_too_long, the engine never called', async () => {
    const ava = BUILT_IN_BOTS.find((b) => b.uid === 'bot_ava')!;
    let called = false;
    const speech: SpeechEngine = {
      name: 'spy',
      synthesize: async () => {
        called = true;
        throw new Error('not to be called');
      },
    };
    const text = 'a '.repeat(1000).trim();
    const entries = parseLexicon({ entries: [{ word: 'a', say: 'x'.repeat(100) }] });
    const rendering = renderClip({
      bot: ava,
      text,
      pronunciations: pronunciationsFor(text, entries),
      voice: voiceToSpeak(ava.voice, undefined, { polly: false }),
      position: 'bottom-right',
      removeBotBackground: false,
      backgroundVolume: 0,
      transitions: {},
      frame: { width: 1280, height: 720 },
      mode: 'video',
      workDir: mkdtempSync(join(tmpdir(), 'vidbot-spoken-')),
      speech,
    });
    await expect(rendering).rejects.toMatchObject({ name: 'SpokenTextTooLongError', maxChars: limits.maxSpokenChars });
    expect(called).toBe(false);
  });

  it('is not sent to Polly either, nor is escaped markup longer than Polly takes (it would be paid for, then refused)', async () => {
    const client = new PollyClient({ region: 'us-east-1' });
    const mock = mockClient(client);
    const voice = { id: 'polly:Joanna' } as never;
    const work = mkdtempSync(join(tmpdir(), 'vidbot-polly-'));
    await expect(new PollySpeechEngine(client).synthesize(multiplied(), voice, work)).rejects.toBeInstanceOf(SpokenTextTooLongError);
    await expect(
      new PollySpeechEngine(client).synthesize(speechScriptOf(`${'&'.repeat(1980)}<break time="1s"/>`), voice, work),
    ).rejects.toBeInstanceOf(SpokenTextTooLongError);
    expect(mock.commandCalls(SynthesizeSpeechCommand)).toHaveLength(0);
  });

  it('matches a word folded as the pattern folds it, fast: 1000 "ſ" against 500 entries (each miss compiled a pattern per entry)', () => {
    const entries = parseLexicon({ entries: [...Array.from({ length: 499 }, (_, i) => ({ word: `w${i}x`, say: 'y' })), { word: 's', say: 'ess' }] });
    const text = 'ſ '.repeat(1000).trim();
    const t0 = performance.now();
    const used = pronunciationsFor(text, entries);
    const script = speechScriptOf(text, used);
    expect(performance.now() - t0).toBeLessThan(200);
    expect(used).toEqual([{ word: 's', say: 'ess' }]);
    expect(script.parts[0]).toMatchObject({ kind: 'speech', text: expect.stringMatching(/^ess ess /) });
  });
});

describe("espeak-ng's phoneme input", () => {
  it('is refused in a lexicon entry and broken up in what is said, so [[…]] is read as written', () => {
    expect(() => parseLexicon({ entries: [{ word: 'hi', say: "[[h'EloU]]" }] })).toThrow(InvalidRequestError);
    expect(withoutPhonemeInput("say [[h@l'oU]] now")[0]).toBe("say [ [h@l'oU]] now");
    expect(withoutPhonemeInput('a [[[b')[0]).toBe('a [ [ [b');
  });
});
