import { describe, expect, it } from 'vitest';
import { BOT_SIZE_DEFAULT_DOC, MUSIC_DEFAULT_VOLUME, MUSIC_PRESETS } from '#domain/choices';
import { createRequestSchema, normaliseWebhook, parseClipsField, parseCreateVideo } from '#domain/create-request';
import { InvalidRequestError } from '#domain/errors';
import { jsonSchemaOf } from '#domain/json-schema';
import { limits } from '#domain/limits';
import { openApiDocument } from '#functions/api/openapi.ts';
import { unreachableProblems } from '#functions/api/unreachable.ts';
import { mergeSpeech } from '#functions/media/music.ts';
import { SPEC_SAMPLE_FIELDS } from '../../support/events.ts';

const problemsOf = (fields: Record<string, unknown>) => {
  try {
    parseCreateVideo(fields);
  } catch (error) {
    if (error instanceof InvalidRequestError) return error.problems;
    throw error;
  }
  throw new Error('expected the request to be refused');
};

const clip = (overrides: Record<string, unknown> = {}) => ({ bot_uid: 'bot_ava', text: 'Hello there', ...overrides });

describe('parseCreateVideo', () => {
  it('reads the spec sample: scheme-less webhook, single-quoted clips, string booleans', () => {
    const command = parseCreateVideo(SPEC_SAMPLE_FIELDS);
    expect(command.webhookUrl).toBe('https://www.website.com/webhook');
    expect(command.createVideo).toBe(true);
    expect(command.clips).toHaveLength(2);
    expect(command.clips[0]).toMatchObject({
      bot_uid: 'bot_ava',
      bot_position: 'bottom-right',
      remove_bot_background: true,
      background: 'https://www.website.com/background.mp4',
      background_volume: 0.5,
      transitions: { entry: 'fade_in', exit: 'fade_out' },
      reusable_clip: false,
      clip_name: 'Intro',
    });
    expect(command.clips[1]).toMatchObject({ bot_uid: 'bot_leo', bot_position: 'top-left', reusable_clip: true });
  });

  it('accepts process_done_webhook as the webhook and clips as an array in JSON', () => {
    const command = parseCreateVideo({ process_done_webhook: 'https://example.com/hook', create_video: false, clips: [clip()] });
    expect(command).toMatchObject({ webhookUrl: 'https://example.com/hook', createVideo: false });
  });

  it.each([
    ['true', true],
    ['false', false],
    ['1', true],
    ['0', false],
    [true, true],
    [0, false],
  ])('create_video %j means %s', (value, expected) => {
    expect(parseCreateVideo({ webhook: 'https://e.com', create_video: value, clips: [clip()] }).createVideo).toBe(expected);
  });

  it('defaults create_video to true and optional clip fields to documented values', () => {
    const command = parseCreateVideo({ webhook: 'https://e.com', clips: JSON.stringify([clip()]) });
    expect(command.createVideo).toBe(true);
    expect(command.clips[0]).toEqual({
      bot_uid: 'bot_ava',
      text: 'Hello there',
      remove_bot_background: false,
      background_volume: 0.2,
      transitions: {},
      reusable_clip: false,
    });
  });

  it('normalises position and transition spellings', () => {
    const command = parseCreateVideo({
      webhook: 'https://e.com',
      clips: [clip({ bot_position: 'Top_Right', transitions: 'fade-in  slide-out-left' })],
    });
    expect(command.clips[0]).toMatchObject({ bot_position: 'top-right', transitions: { entry: 'fade_in', exit: 'slide_out_left' } });
  });

  it("reads bot_size in any case, and refuses an unknown size at its path in the API's words", () => {
    for (const [given, size] of [
      ['small', 'small'],
      ['LARGE', 'large'],
      [' Full ', 'full'],
      ['Medium', 'medium'],
    ] as const) {
      const command = parseCreateVideo({ webhook: 'https://e.com', clips: [clip({ bot_size: given })] });
      expect(command.clips[0]).toMatchObject({ bot_size: size });
    }
    for (const bad of ['huge', '', 3, null]) {
      const problems = problemsOf({ webhook: 'https://e.com', clips: [clip({ bot_size: bad })] });
      expect(problems, String(bad)).toHaveLength(1);
      expect(problems[0]?.path).toBe('clips[0].bot_size');
      if (typeof bad === 'string') expect(problems[0]?.message).toBe('must be one of small, medium, large, full');
    }
  });

  it('names every bad field with its path', () => {
    const problems = problemsOf({
      clips: JSON.stringify([
        clip({ bot_position: 'middle', transitions: 'fade_in spin', background_volume: 1.5, background: 'ftp://x/y.mp4', colour: 'red' }),
      ]),
    });
    const paths = problems.map((p) => p.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'webhook',
        'clips[0].bot_position',
        'clips[0].transitions',
        'clips[0].background_volume',
        'clips[0].background',
        'clips[0].colour',
      ]),
    );
    expect(problems.find((p) => p.path === 'clips[0].transitions')?.message).toContain('spin');
  });

  it('refuses two entry transitions, empty text, too many clips and too much text', () => {
    expect(problemsOf({ webhook: 'https://e.com', clips: [clip({ transitions: 'fade_in zoom_in' })] })[0]?.message).toMatch(/more than one entry/);
    expect(problemsOf({ webhook: 'https://e.com', clips: [clip({ text: '   ' })] })[0]?.path).toBe('clips[0].text');
    const many = Array.from({ length: limits.maxClips + 1 }, () => clip());
    expect(problemsOf({ webhook: 'https://e.com', clips: many }).map((p) => p.message)).toContain(`must contain at most ${limits.maxClips} clips`);
    const long = Array.from({ length: 6 }, () => clip({ text: 'x'.repeat(limits.maxTextChars) }));
    expect(problemsOf({ webhook: 'https://e.com', clips: long }).some((p) => /totals/.test(p.message))).toBe(true);
    expect(problemsOf({ webhook: 'https://e.com', clips: [clip({ text: 'x'.repeat(limits.maxTextChars + 1) })] })[0]?.path).toBe('clips[0].text');
  });

  it("takes a recording's transcript of up to limits.maxRecordedTranscriptChars, a synthesised clip's text of up to maxTextChars", () => {
    const words = (n: number) => 'word '.repeat(n).slice(0, n);
    const recorded = (text: string) => clip({ text, audio_url: 'https://e.com/talk.mp3' });
    expect(limits.maxRecordedTranscriptChars).toBe(12_000);
    const accepted = (clips: unknown[]) => parseCreateVideo({ webhook: 'https://e.com', clips }).clips.length;
    expect(accepted([recorded(words(12_000))])).toBe(1);
    expect(problemsOf({ webhook: 'https://e.com', clips: [recorded(words(12_001))] }).map((p) => p.path)).toEqual(['clips[0].text']);
    expect(accepted([clip({ text: words(2000) })])).toBe(1);
    const refused = problemsOf({ webhook: 'https://e.com', clips: [clip({ text: words(2001) })] });
    expect(refused.map((p) => p.path)).toEqual(['clips[0].text']);
    expect(refused[0]?.message).toMatch(/at most 2000 characters/);
    // The transcripts are not held to the synthesised clips' total, but to their own (limits.maxTotalTranscriptChars).
    expect(accepted([...Array.from({ length: 3 }, () => recorded(words(12_000))), clip({ text: words(2000) })])).toBe(4);
    const overTotal = problemsOf({ webhook: 'https://e.com', clips: Array.from({ length: 10 }, () => recorded(words(12_000))) });
    expect(overTotal).toEqual([
      { path: 'clips', message: expect.stringContaining("the recordings' transcripts total 120000 characters; at most 36000") },
    ]);
  });

  describe('text must hold something to say', () => {
    const refusedText = (text: string, index = 0) => {
      const clips = [clip(), clip(), clip()];
      clips[index] = clip({ text });
      return problemsOf({ webhook: 'https://e.com', clips });
    };

    it.each([
      ['zero-width space', '\u200B'],
      ['zero-width joiners and a BOM', '\u200D\u200D\uFEFF\u200B'],
      ['zero-width characters between spaces', ' \u200B \u200C '],
      ['punctuation', '...!?;:—«»'],
      ['symbols and emoji alone', '★ ♪ 🙂 👍🏽'],
      ['combining marks alone', '\u0301\u0308'],
    ])('refuses %s with a 400 naming the clip', (_what, text) => {
      const problems = refusedText(text, 1);
      expect(problems).toEqual([{ path: 'clips[1].text', message: expect.stringMatching(/letter or digit/) }]);
    });

    it('refuses control characters (but line breaks and tabs) with a 400 naming the clip', () => {
      expect(refusedText('\u0000\u0007\u001B\u007F', 1)).toEqual([
        { path: 'clips[1].text', message: 'must not hold control characters (only line breaks and tabs)' },
      ]);
    });

    it('keeps saying "must not be empty" (once) for blank text', () => {
      expect(refusedText('   ')).toEqual([{ path: 'clips[0].text', message: expect.stringMatching(/must not be empty/) }]);
    });

    it.each([
      ['Arabic', 'مرحبا بالعالم'],
      ['Chinese', '你好，世界'],
      ['an emoji and a word', '🎉 Congratulations!'],
      ['digits only', '2024'],
      ['a word inside zero-width characters', '\u200BHi\u200D'],
      ['Devanagari', 'नमस्ते'],
    ])('accepts %s', (_what, text) => {
      const command = parseCreateVideo({ webhook: 'https://e.com', clips: [clip({ text })] });
      expect(command.clips[0]).toMatchObject({ text });
    });
  });

  it('refuses webhooks that are not http(s) and clips that are not an array', () => {
    expect(problemsOf({ webhook: 'ftp://e.com/x', clips: [clip()] })[0]?.path).toBe('webhook');
    expect(problemsOf({ webhook: 'https://user:pw@e.com/x', clips: [clip()] })[0]?.message).toMatch(/credentials/);
    expect(problemsOf({ webhook: 'https://e.com', clips: '42' })[0]?.path).toBe('clips');
    expect(problemsOf({ webhook: 'https://e.com', clips: '[{bot_uid: ' })[0]?.message).toMatch(/not a JSON array/);
    expect(problemsOf({ webhook: 'https://e.com' })[0]?.path).toBe('clips');
  });

  it('refuses absurdly nested clips with a 400, not a stack overflow, in every encoding', () => {
    for (const depth of [50, 5_000, 50_000]) {
      const nested = '['.repeat(depth) + ']'.repeat(depth);
      expect(problemsOf({ webhook: 'https://e.com', clips: nested })[0]?.path).toMatch(/^clips/);
      expect(problemsOf({ webhook: 'https://e.com', clips: `[{'bot_uid': 'a', 'text': ${nested}}]` })[0]?.path).toMatch(/^clips/);
    }
  });

  it('reads create_video like every other boolean (any case of true/false)', () => {
    expect(parseCreateVideo({ webhook: 'https://e.com', create_video: 'FALSE', clips: [clip()] }).createVideo).toBe(false);
  });

  it('refuses prototype keys inside clips', () => {
    expect(() => parseClipsField('[{"__proto__": {"x": 1}, "bot_uid": "a", "text": "b"}]')).toThrow(InvalidRequestError);
  });

  it('reads a clip reference', () => {
    expect(parseCreateVideo({ webhook: 'https://e.com', clips: [{ clip_uid: 'clip_abc' }] }).clips[0]).toEqual({ clip_uid: 'clip_abc' });
  });
});

describe('the logo', () => {
  const base = { webhook: 'https://e.com/h', clips: [clip()] };
  const logo = { url: 'https://cdn.example.com/logo.png' };

  it('is optional, and its defaults are applied: top-right, 12 % of the width, opaque', () => {
    expect(parseCreateVideo(base).logo).toBeUndefined();
    expect(parseCreateVideo({ ...base, logo: '' }).logo).toBeUndefined();
    expect(parseCreateVideo({ ...base, logo: null }).logo).toBeUndefined();
    expect(parseCreateVideo({ ...base, logo }).logo).toEqual({ url: logo.url, position: 'top-right', size: 0.12, opacity: 1 });
  });

  it('is read from an object in a JSON body or a string of its JSON in a form, its position in any spelling', () => {
    const given = { url: logo.url, position: 'Bottom_Left', size: 0.3, opacity: 0.5 };
    const expected = { url: logo.url, position: 'bottom-left', size: 0.3, opacity: 0.5 };
    expect(parseCreateVideo({ ...base, logo: given }).logo).toEqual(expected);
    expect(parseCreateVideo({ ...base, logo: JSON.stringify(given) }).logo).toEqual(expected);
    expect(parseCreateVideo({ ...base, logo: { ...logo, size: 0.05, opacity: 0 } }).logo).toMatchObject({ size: 0.05, opacity: 0 });
  });

  it('names each bad field of it with its path', () => {
    const problems = problemsOf({
      ...base,
      logo: { url: 'ftp://x/logo.png', position: 'middle', size: 0.5, opacity: -0.1, colour: 'red' },
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        { path: 'logo.url', message: 'must be an http(s) URL' },
        { path: 'logo.position', message: expect.stringMatching(/^must be one of top-left, /) },
        { path: 'logo.size', message: 'must be between 0.05 and 0.3' },
        { path: 'logo.opacity', message: 'must be between 0 and 1' },
        { path: 'logo.colour', message: 'is not a logo field' },
      ]),
    );
    expect(problemsOf({ ...base, logo: { ...logo, size: 0.01 } })).toEqual([{ path: 'logo.size', message: 'must be between 0.05 and 0.3' }]);
    expect(problemsOf({ ...base, logo: { ...logo, size: '0.1' } })).toEqual([{ path: 'logo.size', message: 'must be a number' }]);
    expect(problemsOf({ ...base, logo: { size: 0.1 } })).toEqual([{ path: 'logo.url', message: 'is required' }]);
  });

  it('naming an address vidbot never fetches from is refused at create, naming logo.url', () => {
    for (const [url, reason] of [
      ['http://169.254.169.254/latest/meta-data', 'metadata'],
      ['http://10.0.0.1/logo.png', 'private'],
    ] as const)
      expect(unreachableProblems(parseCreateVideo({ ...base, logo: { url } }), 'cloud')).toEqual([
        { path: 'logo.url', message: `points at an address vidbot does not connect to (${reason})` },
      ]);
    expect(unreachableProblems(parseCreateVideo({ ...base, logo }), 'cloud')).toEqual([]);
  });

  it("an overlay's image naming such an address is refused at create too, naming its overlay", () => {
    const clips = [
      {
        bot_uid: 'bot_ava',
        text: 'Hi',
        overlays: [
          { type: 'text', text: 'Title', style: 'title' },
          { type: 'image', url: 'http://169.254.169.254/latest/meta-data', size: 0.1 },
        ],
      },
    ];
    expect(unreachableProblems(parseCreateVideo({ ...base, clips }), 'cloud')).toEqual([
      { path: 'clips[0].overlays[1].url', message: 'points at an address vidbot does not connect to (metadata)' },
    ]);
  });

  it('refuses what is not an object, a form string that is not JSON, and prototype keys', () => {
    const notObject = [{ path: 'logo', message: 'must be an object like {"url": "https://…"}, or a string of its JSON' }];
    expect(problemsOf({ ...base, logo: 'https://cdn.example.com/logo.png' })).toEqual(notObject);
    expect(problemsOf({ ...base, logo: '{"url": ' })).toEqual(notObject);
    expect(problemsOf({ ...base, logo: [logo] })).toEqual(notObject);
    expect(problemsOf({ ...base, logo: `{"url": "${logo.url}", "__proto__": {"size": 0.2}}` })).toEqual([
      { path: 'logo.__proto__', message: 'is not a logo field' },
    ]);
  });
});

describe('normaliseWebhook', () => {
  it.each([
    ['www.website.com/webhook', 'https://www.website.com/webhook'],
    ['http://127.0.0.1:4000/hook', 'http://127.0.0.1:4000/hook'],
    ['//cdn.example.com/x', 'https://cdn.example.com/x'],
  ])('%s → %s', (input, output) => expect(normaliseWebhook(input)).toBe(output));
});

describe('the create request in the OpenAPI document', () => {
  const documented = openApiDocument('https://example.com').components.schemas.CreateVideoRequest as {
    required: string[];
    properties: Record<string, { enum?: string[]; default?: unknown }>;
  };

  it('is generated from the schema that validates it', () => {
    expect(documented).toEqual(jsonSchemaOf(createRequestSchema));
  });

  it("documents only what the validator accepts, and its defaults are the validator's", () => {
    const base = { webhook: 'https://e.com/h', clips: [clip()] };
    for (const field of ['aspect_ratio', 'resolution', 'captions', 'create_video'] as const) {
      for (const value of documented.properties[field]!.enum ?? [])
        expect(() => parseCreateVideo({ ...base, [field]: value }), `${field}=${value}`).not.toThrow();
    }
    const defaults = parseCreateVideo(base);
    expect(documented.properties.aspect_ratio!.default).toBe(defaults.shape.aspectRatio);
    expect(documented.properties.resolution!.default).toBe(defaults.shape.resolution);
    expect(documented.properties.captions!.default).toBe(defaults.captions);
    expect(documented.properties.create_video!.default).toBe(defaults.createVideo);
    const logo = (documented.properties.logo as { anyOf: { properties?: Record<string, { default?: unknown }> }[] }).anyOf[0]!.properties!;
    const logoDefaults = parseCreateVideo({ ...base, logo: { url: 'https://e.com/l.png' } }).logo!;
    for (const field of ['position', 'size', 'opacity'] as const) expect(logo[field]!.default).toBe(logoDefaults[field]);
    for (const field of documented.required) expect(problemsOf({ ...base, [field]: undefined }).map((p) => p.path)).toContain(field);
  });

  it("documents a clip's bot_size: every size it lists is accepted, its default is the validator's", () => {
    const clipDoc = JSON.stringify(documented.properties.clips);
    const botSize = JSON.parse(clipDoc.slice(clipDoc.indexOf('"bot_size":') + '"bot_size":'.length).match(/^\{[^{}]*\}/)![0]) as {
      enum: string[];
      default: string;
    };
    expect(botSize.enum).toEqual(['small', 'medium', 'large', 'full']);
    for (const size of botSize.enum)
      expect(parseCreateVideo({ webhook: 'https://e.com/h', clips: [clip({ bot_size: size })] }).clips[0]).toMatchObject({ bot_size: size });
    // Left out, the size follows the clip's background and position (presenterLayoutOf), as the document says.
    expect(botSize.default).toBe(BOT_SIZE_DEFAULT_DOC);
    expect(parseCreateVideo({ webhook: 'https://e.com/h', clips: [clip()] }).clips[0]).not.toHaveProperty('bot_size');
  });
});

describe('music', () => {
  const base = { webhook: 'https://e.com/h', clips: [clip()] };
  const music = (value: unknown) => parseCreateVideo({ ...base, music: value }).music;

  it('is left out unless given (an empty form field too)', () => {
    expect(music(undefined)).toBeUndefined();
    expect(music('')).toBeUndefined();
  });

  it('takes a url or a preset, with a volume defaulting to MUSIC_DEFAULT_VOLUME', () => {
    expect(music({ url: 'https://cdn.example.com/bed.mp3' })).toEqual({ url: 'https://cdn.example.com/bed.mp3', volume: MUSIC_DEFAULT_VOLUME });
    expect(music({ preset: 'calm', volume: 0 })).toEqual({ preset: 'calm', volume: 0 });
    for (const preset of MUSIC_PRESETS) expect(music({ preset, volume: 1 })).toEqual({ preset, volume: 1 });
  });

  it('is read from a JSON (or JSON5) string in a form body, as clips are; words in any case', () => {
    expect(music('{"preset": "Upbeat", "volume": "0.4"}')).toEqual({ preset: 'upbeat', volume: 0.4 });
    expect(music("{preset: 'calm'}")).toEqual({ preset: 'calm', volume: MUSIC_DEFAULT_VOLUME });
  });

  it.each([
    [{}, 'music', 'give a url or a preset'],
    [{ url: 'https://a.example/m.mp3', preset: 'calm' }, 'music.preset', 'give a url or a preset, not both'],
    [{ preset: 'rock' }, 'music.preset', `must be one of ${MUSIC_PRESETS.join(', ')}`],
    [{ preset: 7 }, 'music.preset', `must be one of ${MUSIC_PRESETS.join(', ')}`],
    [{ preset: 'calm', volume: 1.5 }, 'music.volume', 'must be between 0 and 1'],
    [{ preset: 'calm', volume: -0.1 }, 'music.volume', 'must be between 0 and 1'],
    [{ preset: 'calm', volume: 'loud' }, 'music.volume', 'must be a number between 0 and 1'],
    [{ preset: 'calm', volume: true }, 'music.volume', 'must be a number between 0 and 1'],
    [{ url: 'ftp://a.example/m.mp3' }, 'music.url', 'must be an http(s) URL'],
    [{ url: 'https://user:pw@a.example/m.mp3' }, 'music.url', 'must not carry credentials'],
    [{ url: 'not a url' }, 'music.url', 'must be an absolute http(s) URL'],
    [{ preset: 'calm', loop: false }, 'music.loop', 'is not a field of music'],
    ['calm', 'music', expect.stringMatching(/^must be an object/)],
    [[{ preset: 'calm' }], 'music', expect.stringMatching(/^must be an object/)],
    [3, 'music', expect.stringMatching(/^must be an object/)],
  ])('%j is refused at its path', (value, path, message) => {
    expect(problemsOf({ ...base, music: value })).toEqual([{ path, message }]);
  });

  it('is documented as it is validated (presets, default volume)', () => {
    const documented = openApiDocument('https://example.com').components.schemas.CreateVideoRequest as {
      properties: { music: { anyOf: [{ type: string }, { properties: { preset: { enum: string[] }; volume: { default: number } } }] } };
    };
    const [asString, asObject] = documented.properties.music.anyOf;
    expect(asString.type).toBe('string');
    expect(asObject.properties.preset.enum).toEqual([...MUSIC_PRESETS]);
    expect(asObject.properties.volume.default).toBe(MUSIC_DEFAULT_VOLUME);
  });
});

describe('mergeSpeech', () => {
  it('joins spans closer than 0.4 s, keeps the others apart, in time order', () => {
    const span = (startSeconds: number, endSeconds: number) => ({ startSeconds, endSeconds });
    expect(mergeSpeech([span(3, 4), span(0.5, 1), span(1.2, 2), span(4.5, 5), span(6, 6)])).toEqual([span(0.5, 2), span(3, 4), span(4.5, 5)]);
  });
});
