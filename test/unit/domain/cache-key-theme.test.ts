/** A video's theme is in a clip's cache key only when it changes what the clip draws. */
import { describe, expect, it } from 'vitest';
import { BUILT_IN_BOTS } from '#domain/bot';
import type { ClipSpec } from '#domain/clip';
import { DEFAULT_THEME, type TextOverlay } from '#domain/overlays';
import { voiceToSpeak } from '#domain/voices';
import { cacheKeyOf } from '../../support/cache-key.ts';

const ava = BUILT_IN_BOTS.find((b) => b.uid === 'bot_ava')!;
const voice = voiceToSpeak(ava.voice, undefined, { polly: false });
const key = (spec: ClipSpec) => cacheKeyOf(spec, { bot: ava, voice });
const plain: ClipSpec = {
  index: 0,
  botUid: 'bot_ava',
  text: 'Hello there.',
  position: 'bottom-right',
  removeBotBackground: false,
  backgroundVolume: 0,
  transitions: {},
  reusable: true,
} as ClipSpec;
const title: TextOverlay = { type: 'text', text: 'Hi', style: 'title', start: 0, position: 'center' };
const merriweather = { ...DEFAULT_THEME, font: 'merriweather' } as const;

describe("the theme in a clip's cache key", () => {
  it('is left out when the clip draws no text: the same pixels keep the same address', () => {
    expect(key({ ...plain, theme: merriweather })).toBe(key(plain));
  });
  it('is left out when it is the default theme (`theme: {}`)', () => {
    expect(key({ ...plain, captions: 'burn', theme: DEFAULT_THEME })).toBe(key({ ...plain, captions: 'burn' }));
  });
  it('counts when captions are burned or a text overlay is drawn', () => {
    expect(key({ ...plain, captions: 'burn', theme: merriweather })).not.toBe(key({ ...plain, captions: 'burn' }));
    expect(key({ ...plain, overlays: [title], theme: merriweather })).not.toBe(key({ ...plain, overlays: [title] }));
  });
});
