/** SSML-lite in clip text and the account's lexicon: what is accepted, what is refused and how, and what is said. */
import { describe, expect, it } from 'vitest';
import { BUILT_IN_BOTS } from '#domain/bot';
import type { ClipSpec } from '#domain/clip';
import { parseCreateVideo } from '#domain/create-request';
import { InvalidRequestError } from '#domain/errors';
import { type LexiconEntry, parseLexicon, pronunciationsFor, speechScriptOf } from '#domain/lexicon';
import { parseSpeechMarkup, SPEECH_MARKUP_LIMITS, speechMarkupProblem } from '#domain/speech-markup';
import { voiceToSpeak } from '#domain/voices';
import { cacheKeyOf } from '../../support/cache-key.ts';

const problemsOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof InvalidRequestError) return error.problems;
    throw error;
  }
  throw new Error('expected a refusal');
};

/** The spoken pieces of a text: what each says, and how. */
const said = (text: string, lexicon: LexiconEntry[] = []) =>
  speechScriptOf(text, lexicon).parts.map((p) => (p.kind === 'break' ? { break: p.seconds } : p));

describe('speech markup', () => {
  it('reads breaks, emphasis and say-as into runs of the text as shown, tags removed and entities read', () => {
    const markup = parseSpeechMarkup(
      'Hi<break time="500ms"/>there. <emphasis level="strong">Now</emphasis>, the <say-as interpret-as="characters">API</say-as> &amp; &lt;3 <break time=\'1.5s\' />end<emphasis>!</emphasis>',
    );
    expect(markup.shown).toBe('Hi there. Now, the API & <3 end!');
    const runs = markup.runs.map((r) => (r.kind === 'break' ? r : { ...r, text: markup.shown.slice(r.start, r.end) }));
    expect(runs).toEqual([
      { kind: 'text', start: 0, end: 2, text: 'Hi' },
      { kind: 'break', seconds: 0.5 },
      { kind: 'text', start: 3, end: 10, text: 'there. ' },
      { kind: 'text', start: 10, end: 13, text: 'Now', emphasis: 'strong' },
      { kind: 'text', start: 13, end: 19, text: ', the ' },
      { kind: 'text', start: 19, end: 22, text: 'API', spell: true },
      { kind: 'text', start: 22, end: 28, text: ' & <3 ' },
      { kind: 'break', seconds: 1.5 },
      { kind: 'text', start: 28, end: 31, text: 'end' },
      { kind: 'text', start: 31, end: 32, text: '!', emphasis: 'moderate' },
    ]);
  });

  it('leaves text that is not a tag as it is: "3 < 5", "<3", a lone "&", an entity it does not know', () => {
    for (const text of ['3 < 5 and 5 > 3', 'I <3 you', 'Tom & Jerry', 'R&D', '&nbsp; stays', 'a <', '<<>>'])
      expect(parseSpeechMarkup(text)).toEqual({ shown: text, runs: [{ kind: 'text', start: 0, end: text.length }] });
  });

  it.each([
    ['Hello <voice name="x">there</voice>', 'unknown tag <voice>; allowed: break, emphasis, say-as'],
    ['Hello </speak><break time="100s"/>', 'unknown tag <speak>; allowed: break, emphasis, say-as'],
    ['Say <b>this</b>', 'unknown tag <b>; allowed: break, emphasis, say-as'],
    ['Hello <emphasis>there', '<emphasis> is never closed'],
    ['Hello</emphasis> there', '</emphasis> closes nothing'],
    ['<emphasis>a <say-as interpret-as="characters">b</emphasis></say-as>', '</emphasis> closes nothing: <say-as> is still open'],
    ['<say-as interpret-as="characters">a <say-as interpret-as="characters">b</say-as></say-as>', '<say-as> cannot be inside <say-as>'],
    ['<emphasis>a <emphasis>b</emphasis></emphasis>', '<emphasis> cannot be inside another <emphasis>'],
    ['<say-as interpret-as="characters">a <break time="1s"/></say-as>', '<break/> cannot be inside <say-as>'],
    ['Wait <break/> here', '<break/> needs a time, e.g. <break time="500ms"/> or <break time="1.5s"/>'],
    ['Wait <break time="soon"/> here', '<break time="soon">: time must be milliseconds ("500ms") or seconds ("1.5s")'],
    ['Wait <break time="6s"/> here', '<break time="6s">: a break lasts at most 5 s'],
    ['Wait <break time="1s"> here', '<break> takes no content: write it as <break time="500ms"/>'],
    ['Wait <break strength="x" time="1s"/>', 'unknown attribute strength on <break>; allowed: time'],
    ['A <emphasis level="loud">b</emphasis>', '<emphasis level="loud">: level must be one of strong, moderate, reduced'],
    ['A <say-as interpret-as="date">b</say-as>', '<say-as interpret-as="date">: only "characters" is supported'],
    ['A <say-as>b</say-as>', '<say-as> needs interpret-as="characters"'],
    ['A <emphasis level=strong>b</emphasis>', 'malformed tag "<emphasis level=strong>": write attributes as name="value" and close the tag with ">"'],
    ['A <emphasis', 'malformed tag "<emphasis": write attributes as name="value" and close the tag with ">"'],
    ['A </ b>', '"</ b>" is not a tag; write &lt; for a "<" followed by a letter or "/"'],
    ['A <emphasis/> b', '<emphasis/> is empty: write <emphasis>…</emphasis> around the words'],
  ])('refuses %j: %s', (text, message) => {
    expect(speechMarkupProblem(text)).toBe(message);
  });

  it('bounds the breaks: each, their total and their number', () => {
    expect(speechMarkupProblem(`a${'<break time="5s"/>a'.repeat(4)}`)).toBeUndefined();
    expect(speechMarkupProblem(`a${'<break time="5s"/>a'.repeat(5)}`)).toBe(
      `the breaks of a clip add up to at most ${SPEECH_MARKUP_LIMITS.maxTotalBreakSeconds} s`,
    );
    expect(speechMarkupProblem(`a${'<break time="10ms"/>a'.repeat(21)}`)).toBe(`at most ${SPEECH_MARKUP_LIMITS.maxBreaks} breaks in a clip`);
  });

  it('refuses bad markup at clips[i].text, and text that says nothing once its tags are gone', () => {
    const body = (text: string) => ({
      webhook: 'https://example.com/hook',
      clips: [
        { bot_uid: 'bot_ava', text: 'Fine.' },
        { bot_uid: 'bot_ava', text },
      ],
    });
    expect(problemsOf(() => parseCreateVideo(body('Hi <voice>x</voice>')))).toEqual([
      { path: 'clips[1].text', message: 'unknown tag <voice>; allowed: break, emphasis, say-as' },
    ]);
    expect(problemsOf(() => parseCreateVideo(body('<break time="1s"/> <emphasis>…</emphasis>')))).toEqual([
      { path: 'clips[1].text', message: 'must contain something to say: at least one letter or digit' },
    ]);
    expect(parseCreateVideo(body('Hi <break time="1s"/> <emphasis>there</emphasis>, 3 < 5.')).clips[1]).toMatchObject({
      text: 'Hi <break time="1s"/> <emphasis>there</emphasis>, 3 < 5.',
    });
  });

  it('counts the raw text, markup included, against the clip limit', () => {
    const text = `Hi${' '.repeat(1980)}<emphasis>x</emphasis>`;
    expect(problemsOf(() => parseCreateVideo({ webhook: 'https://example.com/hook', clips: [{ bot_uid: 'bot_ava', text }] }))).toEqual([
      { path: 'clips[0].text', message: "must be at most 2000 characters (a recording's transcript: 12000)" },
    ]);
  });
});

describe('the lexicon', () => {
  it('takes up to 500 unique words (any case) with how to say them, trimmed', () => {
    expect(
      parseLexicon({
        entries: [
          { word: ' vidbot ', say: 'vid bot' },
          { word: 'SQL', say: 'sequel' },
        ],
      }),
    ).toEqual([
      { word: 'vidbot', say: 'vid bot' },
      { word: 'SQL', say: 'sequel' },
    ]);
    expect(parseLexicon({ entries: [] })).toEqual([]);
  });

  it('refuses each bad entry at its path, in the API words', () => {
    expect(
      problemsOf(() =>
        parseLexicon({
          entries: [
            { word: 'vidbot', say: 'vid bot' },
            { word: 'VidBot', say: 'video bot' },
            { word: '', say: 'x' },
            { word: 'x'.repeat(51), say: 'x' },
            { word: 'ok', say: '<break time="1s"/>' },
            { word: '!!', say: 'bang' },
            { word: 'line\nbreak', say: 'x' },
            { word: 'fine', say: 'y'.repeat(101) },
            { word: 'extra', say: 'x', lang: 'en' },
          ],
        }),
      ),
    ).toEqual([
      { path: 'entries[2].word', message: 'must not be empty' },
      { path: 'entries[3].word', message: 'must be at most 50 characters' },
      { path: 'entries[4].say', message: 'must be plain text: no markup (< or >)' },
      { path: 'entries[5].word', message: 'must hold a letter or a digit' },
      { path: 'entries[6].word', message: 'must not hold control characters or line breaks' },
      { path: 'entries[7].say', message: 'must be at most 100 characters' },
      { path: 'entries[8].lang', message: 'is not an entry field (word, say)' },
      { path: 'entries[1].word', message: '"VidBot" is already entries[0].word (words are unique whatever their case)' },
    ]);
    expect(
      problemsOf(() =>
        parseLexicon({
          entries: [
            { word: 'vidbot', say: 'a' },
            { word: 'VIDBOT', say: 'b' },
          ],
        }),
      ),
    ).toEqual([{ path: 'entries[1].word', message: '"VIDBOT" is already entries[0].word (words are unique whatever their case)' }]);
    expect(problemsOf(() => parseLexicon({ entries: Array.from({ length: 501 }, (_, i) => ({ word: `w${i}`, say: 'x' })) }))).toEqual([
      { path: 'entries', message: 'must have at most 500 entries' },
    ]);
    expect(problemsOf(() => parseLexicon({}))).toEqual([{ path: 'entries', message: 'is required' }]);
  });

  const lexicon: LexiconEntry[] = [
    { word: 'vidbot', say: 'vid bot' },
    { word: 'SQL', say: 'sequel' },
    { word: 'New York', say: 'the big apple' },
  ];

  it('replaces whole words in any case, never inside a word or a say-as, and maps the replacement onto the written word', () => {
    const script = speechScriptOf('Vidbot, vidbots and VIDBOT speak <say-as interpret-as="characters">SQL</say-as> and sql in new  york.', lexicon);
    expect(script.shown).toBe('Vidbot, vidbots and VIDBOT speak SQL and sql in new  york.');
    const speech = script.parts.filter((p) => p.kind === 'speech');
    expect(speech.map((p) => p.text)).toEqual(['vid bot, vidbots and vid bot speak ', 'SQL', ' and sequel in the big apple.']);
    // Every unit of a replacement stands for the whole written word.
    const first = speech[0]!;
    expect(first.spans.slice(0, 7)).toEqual(Array(7).fill([0, 6]));
    expect(first.spans[7]).toEqual([6, 7]);
  });

  it('says which entries a clip uses (what its cache key holds), in the lexicon order', () => {
    expect(pronunciationsFor('New York loves SQL.', lexicon)).toEqual([lexicon[1], lexicon[2]]);
    expect(pronunciationsFor('Nothing here; vidbots is another word.', lexicon)).toEqual([]);
    expect(pronunciationsFor('<say-as interpret-as="characters">SQL</say-as>', lexicon)).toEqual([]);
    // A word split by a tag is still one word: its part is not a word of its own.
    expect(pronunciationsFor('vid<emphasis>bot</emphasis> and SQL<emphasis>ite</emphasis>', [{ word: 'vid', say: 'x' }, ...lexicon])).toEqual([]);
  });

  it('keeps breaks and styles apart from the words said', () => {
    expect(said('Hi <break time="250ms"/><emphasis level="reduced">vidbot</emphasis>', lexicon)).toEqual([
      expect.objectContaining({ text: 'Hi ' }),
      { break: 0.25 },
      expect.objectContaining({ text: 'vid bot', emphasis: 'reduced' }),
    ]);
  });
});

describe('the render-cache key', () => {
  const ava = BUILT_IN_BOTS.find((b) => b.look === 'ava')!;
  const voice = voiceToSpeak(ava.voice, undefined, { polly: false });
  const spec = (text: string): ClipSpec => ({
    index: 0,
    clipName: 'c',
    botUid: ava.uid,
    text,
    position: 'center',
    removeBotBackground: false,
    backgroundVolume: 0,
    transitions: {},
    reusable: false,
  });
  const key = (text: string, pronunciations: LexiconEntry[] = []) => cacheKeyOf(spec(text), { bot: ava, voice, pronunciations });

  it('changes with the markup and with the lexicon entries the text uses, and only with those', () => {
    expect(key('Hi vidbot.')).not.toBe(key('Hi <break time="1s"/>vidbot.'));
    expect(key('Hi vidbot.')).not.toBe(key('Hi <emphasis>vidbot</emphasis>.'));
    const text = 'Hi vidbot.';
    const withLexicon = (entries: LexiconEntry[]) => key(text, pronunciationsFor(text, entries));
    expect(withLexicon([])).toBe(key(text));
    expect(withLexicon([{ word: 'vidbot', say: 'vid bot' }])).not.toBe(key(text));
    expect(withLexicon([{ word: 'vidbot', say: 'video bot' }])).not.toBe(withLexicon([{ word: 'vidbot', say: 'vid bot' }]));
    // An entry the text does not use leaves the key as it was.
    expect(
      withLexicon([
        { word: 'vidbot', say: 'vid bot' },
        { word: 'SQL', say: 'sequel' },
      ]),
    ).toBe(withLexicon([{ word: 'vidbot', say: 'vid bot' }]));
  });
});
