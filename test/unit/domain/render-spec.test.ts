/** A clip's render spec: what the render cache's key hashes and what the engine's input is made from. */
import { describe, expect, it } from 'vitest';
import type { ClipSpec } from '#domain/clip';
import { DEFAULT_THEME } from '#domain/overlays';
import { renderSpecOf } from '#domain/render-spec';
import { DEFAULT_SHAPE } from '#domain/shape';
import { voiceToSpeak } from '#domain/voices';
import { engineInputOf, imageLayersOf } from '#functions/render/render-input.ts';
import { AVA, cacheKeyOf } from '../../support/cache-key.ts';
import { PLAIN_CLIP } from '../../support/clip-fixtures.ts';

const voice = voiceToSpeak(AVA.voice, undefined, { polly: false });
const plain = PLAIN_CLIP;
/** Every field that draws or sounds, in the order a stored map may give them (not the order they are hashed in). */
const everything: ClipSpec = {
  ...plain,
  text: 'Hello <break time="500ms"/> NASA',
  voice: 'espeak:es+f3',
  position: 'top-left',
  botSize: 'large',
  removeBotBackground: true,
  background: 'https://example.com/bg.mp4',
  backgroundVolume: 0.4,
  transitions: { exit: 'wipe_out', entry: 'fade_in' },
  captions: 'burn',
  logo: { opacity: 0.5, size: 0.2, position: 'top-right', url: 'https://example.com/logo.png' } as ClipSpec['logo'] & {},
  overlays: [
    { position: 'center', start: 0, style: 'title', text: 'Hi', type: 'text' },
    { type: 'image', url: 'https://example.com/i.png', start: 1, end: 2, position: 'bottom-left', size: 0.15, opacity: 1 },
  ],
  theme: { textColor: '#FFFFFF', primaryColor: '#112233', font: 'merriweather' },
};
const NASA = [{ word: 'NASA', say: 'nasa' }];

describe("a clip's cache key", () => {
  // Computed by the hash that listed the material by hand: the render spec keeps every address of today's clips,
  // so no cached or kept clip is rendered again. A change here renders them all again: make it a decision.
  it.each([
    ['a plain video clip', plain, {}, '6e781ae3b969779e9336bdf283243ccc9ac3f513220bc29f3dd963bf9587211c'],
    ['a plain voice clip', plain, { mode: 'voice' as const }, '8635d85418c450103fc4aad46668ab5e7804f0f54370a1e5335209380d0f82c8'],
    [
      'a clip with every field, in 9:16 1080p, with a lexicon entry',
      everything,
      { shape: { aspectRatio: '9:16', resolution: '1080p' } as const, pronunciations: NASA },
      'a50da28f9fe9bd9358940f6e97b4b6684ab36256c512eac258d6b50632292f50',
    ],
    [
      'a background at volume 0, an undrawn theme and no overlays',
      {
        ...plain,
        background: 'https://example.com/bg.mp4',
        theme: { font: 'inter', primaryColor: '#000000', textColor: '#FFFFFF' },
        overlays: [],
      } as ClipSpec,
      {},
      '7ad41fe40de71bf91745c1d2d25996e69bb802ff4330ff9ca98ef7e01d62c573',
    ],
    [
      'a volume without a background, burned captions in the default theme',
      { ...plain, backgroundVolume: 0.7, captions: 'burn', theme: DEFAULT_THEME } as ClipSpec,
      {},
      '45edc57a436314dff6a9c87bf3a4ef10df0186312d8376aa76b64592b55173d9',
    ],
    [
      'a voice clip whose picture fields are set',
      { ...plain, background: 'https://example.com/bg.mp4', captions: 'burn', botSize: 'full' } as ClipSpec,
      { mode: 'voice' as const, pronunciations: [{ word: 'Hello', say: 'hallo' }] },
      '0902d1eacc62ef20f93e9c4e94bf17befa3fcc8689110961543ee22b2697351e',
    ],
  ])('is pinned for %s', (_name, clip, facts, key) => {
    expect(cacheKeyOf(clip, { voice, rendererVersion: '4', ...facts })).toBe(key);
  });

  it('is the same for clips that render alike: a stored map in any order, defaults spelled out, what draws nothing', () => {
    const reordered = {
      ...everything,
      logo: { url: everything.logo!.url, position: everything.logo!.position, size: everything.logo!.size, opacity: everything.logo!.opacity },
      theme: { font: 'merriweather', primaryColor: '#112233', textColor: '#FFFFFF' },
      transitions: { entry: 'fade_in', exit: 'wipe_out' },
    } as ClipSpec;
    expect(cacheKeyOf(reordered)).toBe(cacheKeyOf(everything));
    expect(cacheKeyOf({ ...plain, botSize: 'medium' })).toBe(cacheKeyOf(plain));
    expect(cacheKeyOf({ ...plain, backgroundVolume: 1 })).toBe(cacheKeyOf(plain));
    expect(cacheKeyOf({ ...plain, overlays: [] })).toBe(cacheKeyOf(plain));
    expect(cacheKeyOf({ ...everything, voice: 'espeak:de' })).toBe(cacheKeyOf(everything));
  });

  it("differs with every field of a video clip's spec", () => {
    const variants: ClipSpec[] = [
      { ...everything, text: 'Hello' },
      { ...everything, position: 'center' },
      { ...everything, botSize: 'small' },
      { ...everything, removeBotBackground: false },
      { ...everything, background: 'https://example.com/other.mp4' },
      { ...everything, backgroundVolume: 0.5 },
      { ...everything, transitions: { entry: 'fade_in' } },
      { ...everything, captions: undefined },
      { ...everything, logo: { ...everything.logo!, opacity: 1 } },
      { ...everything, overlays: everything.overlays!.slice(1) },
      { ...everything, theme: { ...everything.theme!, font: 'inter' } },
    ];
    const keys = new Set([cacheKeyOf(everything), ...variants.map((clip) => cacheKeyOf(clip))]);
    expect(keys.size).toBe(variants.length + 1);
  });
});

describe("the engine's input", () => {
  const run = { bot: AVA, imageLayers: [], workDir: '/tmp/w', speech: { name: 'test', synthesize: async () => ({}) as never } };

  it("is the spec's: the voice spoken, the lexicon, the picture as normalised", () => {
    const spec = renderSpecOf(everything, { bot: AVA, voice, mode: 'video', shape: DEFAULT_SHAPE, pronunciations: NASA });
    expect(engineInputOf(spec, run)).toMatchObject({
      bot: AVA,
      text: everything.text,
      voice,
      pronunciations: NASA,
      mode: 'video',
      frame: { width: 1280, height: 720 },
      position: 'top-left',
      botSize: 'large',
      removeBotBackground: true,
      backgroundVolume: 0.4,
      transitions: { entry: 'fade_in', exit: 'wipe_out' },
      captions: 'burn',
      overlays: everything.overlays,
      theme: everything.theme,
      workDir: '/tmp/w',
    });
  });

  it('gets no theme that the key left out, and no volume without a background', () => {
    const spec = renderSpecOf(
      { ...plain, backgroundVolume: 0.7, theme: { ...DEFAULT_THEME, font: 'montserrat' } },
      { bot: AVA, voice, mode: 'video', shape: DEFAULT_SHAPE, pronunciations: [] },
    );
    const input = engineInputOf(spec, run);
    expect(input).not.toHaveProperty('theme');
    expect(input).toMatchObject({ backgroundVolume: 0, transitions: {}, botSize: 'medium', pronunciations: [] });
  });

  it("draws the image overlays in their order under the logo, each named for the caller's errors", () => {
    const spec = renderSpecOf(everything, { bot: AVA, voice, mode: 'video', shape: DEFAULT_SHAPE, pronunciations: [] });
    if (spec.mode !== 'video') throw new Error('a video spec');
    expect(imageLayersOf(spec)).toEqual([
      {
        url: 'https://example.com/i.png',
        subject: { code: 'overlay_image', name: 'the image of overlay 2' },
        position: 'bottom-left',
        size: 0.15,
        opacity: 1,
        start: 1,
        end: 2,
      },
      { url: 'https://example.com/logo.png', subject: { code: 'logo', name: 'the logo' }, position: 'top-right', size: 0.2, opacity: 0.5 },
    ]);
  });

  it("sizes the logo by the frame's longer side: as wide in a 9:16 frame as in a 16:9 one", () => {
    const shape = { aspectRatio: '9:16', resolution: '720p' } as const;
    const spec = renderSpecOf(everything, { bot: AVA, voice, mode: 'video', shape, pronunciations: [] });
    if (spec.mode !== 'video') throw new Error('a video spec');
    const logo = imageLayersOf(spec).at(-1)!;
    // 0.2 of 1280 px: 256 px of the 720-px-wide frame.
    expect(logo.size * 720).toBeCloseTo(0.2 * 1280, 6);
  });

  it('of a voice clip says only what is spoken (the engine draws no picture for it)', () => {
    const spec = renderSpecOf(everything, { bot: AVA, voice, mode: 'voice', shape: DEFAULT_SHAPE, pronunciations: [] });
    expect(spec).toEqual({ mode: 'voice', text: everything.text, bot: { look: 'ava', voice } });
    const input = engineInputOf(spec, run);
    expect(input).toMatchObject({ mode: 'voice', text: everything.text, voice });
    for (const picture of ['bot', 'lookDirectory', 'frame', 'position', 'transitions', 'background', 'imageLayers']) {
      expect(input).not.toHaveProperty(picture);
    }
  });
});
