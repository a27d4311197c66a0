/** The rules of a PUT /v1/bot/{uid} and the one conversion of an account bot into the renderer's Bot. */
import { describe, expect, it } from 'vitest';
import { type AccountBot, DRAWN_PARTS, kindOfSource, toBot } from '#domain/account-bot';
import { parsePutBot } from '#domain/account-bot-request';
import { ForbiddenError, InvalidRequestError } from '#domain/errors';
import { limits } from '#domain/limits';
import { openApiDocument } from '#functions/api/openapi.ts';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')]);
const voices = { polly: false };

const problems = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof InvalidRequestError) return error.problems.map((p) => p.path);
    throw error;
  }
  throw new Error('expected InvalidRequestError');
};

describe('parsePutBot', () => {
  it('takes a photo as JPEG, PNG or WebP by its bytes, with defaults (the English voice with the lowest measured WER)', () => {
    for (const bytes of [JPEG, PNG, WEBP]) {
      const command = parsePutBot('my-bot', { name: ' Me ' }, { image: { bytes } }, voices);
      expect(command).toMatchObject({
        uid: 'my-bot',
        name: 'Me',
        description: '',
        voice: 'espeak:en-us+f5',
        defaultPosition: 'bottom-right',
        images: { kind: 'photo' },
      });
    }
  });

  it('takes a recording by video_url or as a video file only with consent: true, naming consent otherwise', () => {
    const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypisom'), Buffer.alloc(8)]);
    const WEBM = Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0, 0]);
    const byUrl = parsePutBot('my-video-bot', { name: 'Me', video_url: 'https://example.com/me.mp4', consent: true }, {}, voices);
    expect(byUrl).toMatchObject({ images: { kind: 'video_url', url: 'https://example.com/me.mp4' }, consent: true });
    for (const bytes of [MP4, WEBM])
      expect(parsePutBot('my-video-bot', { name: 'Me', consent: 'true' }, { video: { bytes } }, voices).images).toEqual({
        kind: 'video',
        video: { bytes },
      });
    // No consent, a false one, or a form's "yes": refused, naming consent.
    for (const consent of [undefined, false, 'yes'])
      expect(problems(() => parsePutBot('my-video-bot', { name: 'Me', video_url: 'https://example.com/me.mp4', consent }, {}, voices))).toEqual([
        'consent',
      ]);
    expect(problems(() => parsePutBot('my-video-bot', { name: 'Me', consent: true }, { video: { bytes: JPEG } }, voices))).toEqual(['video']);
    expect(problems(() => parsePutBot('my-video-bot', { name: 'Me', video: 'https://x.test/v.mp4', consent: true }, {}, voices))).toContain('video');
    // Consent belongs to a recording; one source at a time.
    expect(problems(() => parsePutBot('my-video-bot', { name: 'Me', consent: true }, { image: { bytes: JPEG } }, voices))).toEqual(['consent']);
    expect(
      problems(() =>
        parsePutBot('my-video-bot', { name: 'Me', video_url: 'https://example.com/me.mp4', consent: true }, { image: { bytes: JPEG } }, voices),
      ),
    ).toEqual(['video_url']);
    // A consent that is not true or "true" reads as such, not as zod's "Invalid input".
    expect(() => parsePutBot('my-video-bot', { name: 'Me', video_url: 'https://example.com/me.mp4', consent: 1 }, {}, voices)).toThrow(
      expect.objectContaining({
        problems: [{ path: 'consent', message: 'must be true: state that the person filmed agreed to be made into a bot' }],
      }),
    );
    expect(problems(() => parsePutBot('my-video-bot', { name: 'Me', video_url: 'file:///etc/passwd', consent: true }, {}, voices))).toEqual([
      'video_url',
    ]);
  });

  it('takes an uploaded recording by video_upload, with consent, as the only source', () => {
    const command = parsePutBot('my-video-bot', { name: 'Me', video_upload: 'upl_AAAAAAAAAAAAAAAA', consent: 'true' }, {}, voices);
    expect(command).toMatchObject({ images: { kind: 'video_upload', uploadId: 'upl_AAAAAAAAAAAAAAAA' }, consent: true });
    expect(problems(() => parsePutBot('my-video-bot', { name: 'Me', video_upload: 'upl_AAAAAAAAAAAAAAAA' }, {}, voices))).toEqual(['consent']);
    expect(
      problems(() =>
        parsePutBot(
          'my-video-bot',
          { name: 'Me', video_upload: 'upl_AAAAAAAAAAAAAAAA', video_url: 'https://example.com/me.mp4', consent: true },
          {},
          voices,
        ),
      ),
    ).toEqual(['video_upload']);
    expect(problems(() => parsePutBot('my-video-bot', { name: 'Me', video_upload: 42, consent: true }, {}, voices))).toEqual(['video_upload']);
  });

  it('names each source kind as listings show it', () => {
    expect(kindOfSource({ kind: 'photo', uploadKey: 'k' })).toBe('photo');
    expect(kindOfSource({ kind: 'photo_url', url: 'https://x.test/a.jpg' })).toBe('photo');
    expect(kindOfSource({ kind: 'drawn', uploadKeys: {} })).toBe('drawn');
    expect(kindOfSource({ kind: 'video', uploadKey: 'k' })).toBe('video');
    expect(kindOfSource({ kind: 'video_url', url: 'https://x.test/a.mp4' })).toBe('video');
  });

  it('takes drawn PNGs (two required, two optional) and refuses a drawn layer that is not a PNG', () => {
    expect(
      parsePutBot('drawn', { name: 'D' }, { mouth_closed: { bytes: PNG }, mouth_open: { bytes: PNG }, eyes_closed: { bytes: PNG } }, voices).images,
    ).toMatchObject({
      kind: 'drawn',
      parts: { mouth_closed: expect.anything(), mouth_open: expect.anything(), eyes_closed: expect.anything() },
    });
    expect(problems(() => parsePutBot('drawn', { name: 'D' }, { mouth_closed: { bytes: PNG } }, voices))).toEqual(['mouth_open']);
    expect(problems(() => parsePutBot('drawn', { name: 'D' }, { mouth_closed: { bytes: PNG }, mouth_open: { bytes: JPEG } }, voices))).toEqual([
      'mouth_open',
    ]);
  });

  it('takes the optional mouth shapes (mouth_round, mouth_wide, mouth_fv) by the rules of mouth_open, naming each bad one', () => {
    const drawn = { mouth_closed: { bytes: PNG }, mouth_open: { bytes: PNG } };
    const shapes = { mouth_round: { bytes: PNG }, mouth_wide: { bytes: PNG }, mouth_fv: { bytes: PNG } };
    expect(parsePutBot('drawn', { name: 'D' }, { ...drawn, ...shapes }, voices).images).toEqual({ kind: 'drawn', parts: { ...drawn, ...shapes } });
    expect(parsePutBot('drawn', { name: 'D' }, { ...drawn, mouth_wide: { bytes: PNG } }, voices).images).toEqual({
      kind: 'drawn',
      parts: { ...drawn, mouth_wide: { bytes: PNG } },
    });
    // Not a PNG, too large, sent as text, or without the two drawings every drawn bot needs.
    const huge = Buffer.concat([PNG, Buffer.alloc(limits.maxBotImageBytes)]);
    expect(
      problems(() =>
        parsePutBot(
          'drawn',
          { name: 'D' },
          { ...drawn, mouth_round: { bytes: JPEG }, mouth_wide: { bytes: huge }, mouth_fv: { bytes: WEBP } },
          voices,
        ),
      ),
    ).toEqual(['mouth_round', 'mouth_fv', 'mouth_wide']);
    expect(problems(() => parsePutBot('drawn', { name: 'D', mouth_fv: 'abc' }, drawn, voices))).toEqual(['mouth_fv']);
    expect(problems(() => parsePutBot('drawn', { name: 'D' }, { mouth_closed: { bytes: PNG }, ...shapes }, voices))).toEqual(['mouth_open']);
    // A shape is a drawn layer: with a photo it is a second image source.
    expect(problems(() => parsePutBot('drawn', { name: 'D' }, { image: { bytes: PNG }, mouth_round: { bytes: PNG } }, voices))).toEqual([
      'mouth_round',
    ]);
    expect(problems(() => parsePutBot('drawn', { name: 'D' }, { ...drawn, mouth_oo: { bytes: PNG } }, voices))).toEqual(['mouth_oo']);
  });

  it('documents every drawn layer in the OpenAPI document, the mouth shapes with the frames they give', () => {
    const { properties } = (
      openApiDocument('https://example.com').components.schemas as unknown as Record<string, { properties: Record<string, { description: string }> }>
    ).PutBotRequest!;
    for (const part of DRAWN_PARTS) expect(properties[part]?.description, part).toMatch(/PNG with alpha/);
    expect(properties.mouth_round!.description).toMatch(/^Optional drawn mouth shape: rounded lips .*\(r1, r2\)\.$/);
    expect(properties.mouth_wide!.description).toMatch(/\(w1, w2\)\.$/);
    expect(properties.mouth_fv!.description).toMatch(/\(fv\)\.$/);
  });

  it('names every bad field: voice, webhook, unknown fields, an image sent as text, no source', () => {
    expect(
      problems(() => parsePutBot('x-bot', { name: 'N', voice: 'espeak:nope', webhook: 'ftp://x', colour: 'red', image: 'abc' }, {}, voices)).sort(),
    ).toEqual(['colour', 'image', 'image', 'voice', 'webhook'].sort());
    expect(problems(() => parsePutBot('x-bot', { name: 'N', voice: 'polly:Joanna' }, { image: { bytes: PNG } }, voices))).toEqual(['voice']);
    expect(parsePutBot('x-bot', { name: 'N', voice: 'polly:Joanna' }, { image: { bytes: PNG } }, { polly: true }).voice).toBe('polly:Joanna');
  });

  it("refuses a built-in bot's uid as forbidden, and malformed uids or the built-in prefix as invalid", () => {
    expect(() => parsePutBot('bot_leo', { name: 'N' }, { image: { bytes: PNG } }, voices)).toThrow(ForbiddenError);
    for (const uid of ['', 'ab', 'UPPER', 'a b c', 'x'.repeat(65), 'bot_custom'])
      expect(problems(() => parsePutBot(uid, { name: 'N' }, { image: { bytes: PNG } }, voices))).toEqual(['uid']);
  });
});

describe('toBot', () => {
  const own: AccountBot = {
    tenantId: 'acct_a',
    uid: 'mine',
    keyId: 'key_a',
    name: 'Mine',
    description: 'd',
    voice: 'espeak:en-gb+m3',
    defaultPosition: 'center',
    status: 'ready',
    version: 'v_2',
    source: { kind: 'photo_url', url: 'https://example.com/a.jpg' },
    look: { version: 'v_2', files: ['manifest.json'], preview: 'preview.png' },
    createdAt: 'x',
    updatedAt: 'x',
  };

  it('speaks an espeak voice id as it is, and a Polly one with Polly where the deployment has it (else a stand-in)', () => {
    expect(toBot(own)).toMatchObject({ uid: 'mine', look: 'looks/acct_a/mine/v_2', defaultPosition: 'center', voice: { espeak: 'espeak:en-gb+m3' } });
    expect(toBot(own).voice.polly).toBeUndefined();
    const polly = toBot({ ...own, voice: 'polly:Brian' }).voice;
    expect(polly.polly).toBe('polly:Brian');
    // Where Polly is off, an espeak-ng voice of the same language (British English) speaks for it.
    expect(polly.espeak).toMatch(/^espeak:en-gb/);
  });
});
