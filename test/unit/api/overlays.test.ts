/**
 * A clip's `overlays` and a video's `theme`: read and refused with a 400 naming the field, stored on each clip
 * (a kept clip keeps its overlays and takes the video's theme), shown by the presenters, part of the cache key,
 * and filled from a template's placeholders.
 */
import { describe, expect, it } from 'vitest';
import { toPublicKeptClip } from '#commons/presenters/clip';
import { toPublicVideo } from '#commons/presenters/video';
import { BUILT_IN_BOTS } from '#domain/bot';
import { OVERLAY_STYLES, THEME_FONTS } from '#domain/choices';
import type { ClipSpec } from '#domain/clip';
import { parseCreateVideo } from '#domain/create-request';
import { InvalidRequestError } from '#domain/errors';
import { limits } from '#domain/limits';
import type { TextOverlay } from '#domain/overlays';
import { fieldsFromTemplate, parseTemplate } from '#domain/templates';
import type { VideoRecord } from '#domain/video';
import { voiceToSpeak } from '#domain/voices';
import { openApiDocument } from '#functions/api/openapi.ts';
import { cacheKeyOf } from '../../support/cache-key.ts';
import { createOnMemory, keptClip } from '../../support/clip-fixtures.ts';

const clip = (overrides: Record<string, unknown> = {}) => ({ bot_uid: 'bot_ava', text: 'Hello there', ...overrides });
const request = (fields: Record<string, unknown>) => ({ webhook: 'https://e.com/h', ...fields });

const problemsOf = (fields: Record<string, unknown>) => {
  try {
    parseCreateVideo(request(fields));
  } catch (error) {
    if (error instanceof InvalidRequestError) return error.problems;
    throw error;
  }
  throw new Error('expected the request to be refused');
};
const pathsOf = (overlays: unknown) => problemsOf({ clips: [clip({ overlays })] }).map((p) => p.path);

describe('overlays', () => {
  it('are read with their defaults: start 0, no end, the position of their style', () => {
    const command = parseCreateVideo(
      request({
        clips: [
          clip({
            overlays: [
              { type: 'text', text: '  Welcome  ', style: 'title' },
              { type: 'text', text: 'Ava Martin\r\nHost', style: 'lower_third', start: 1.5, end: 6 },
              { type: 'text', text: 'A box', style: 'caption_box', position: 'Top_Left' },
              { type: 'image', url: 'https://e.com/logo.png' },
            ],
          }),
        ],
      }),
    );
    expect((command.clips[0] as { overlays: unknown }).overlays).toEqual([
      { type: 'text', text: 'Welcome', style: 'title', start: 0, position: 'center' },
      { type: 'text', text: 'Ava Martin\nHost', style: 'lower_third', start: 1.5, end: 6, position: 'bottom-left' },
      { type: 'text', text: 'A box', style: 'caption_box', start: 0, position: 'top-left' },
      { type: 'image', url: 'https://e.com/logo.png', start: 0, position: 'top-left', size: 0.15, opacity: 1 },
    ]);
  });

  it('take any script, in a clips field sent as a string of JSON (a form)', () => {
    const overlays = [{ type: 'text', text: 'مرحبا بالعالم 你好 {\\b1}', style: 'title' }];
    const command = parseCreateVideo(request({ clips: JSON.stringify([clip({ overlays })]) }));
    expect((command.clips[0] as { overlays: { text: string }[] }).overlays[0]!.text).toBe('مرحبا بالعالم 你好 {\\b1}');
  });

  it('are refused with the path of the field at fault', () => {
    expect(pathsOf([{ type: 'text', text: 'x', style: 'title', start: -1 }])).toEqual(['clips[0].overlays[0].start']);
    expect(pathsOf([{ type: 'text', text: 'x', style: 'title' }, {}, { type: 'text', text: 'x', style: 'title', start: 3, end: 3 }])).toEqual([
      'clips[0].overlays[1].type',
      'clips[0].overlays[2].end',
    ]);
    expect(pathsOf([{ type: 'text', text: 'x', style: 'title', end: '5' }])).toEqual(['clips[0].overlays[0].end']);
    expect(pathsOf([{ type: 'text', text: '   ', style: 'title' }])).toEqual(['clips[0].overlays[0].text']);
    expect(pathsOf([{ type: 'text', text: 'x', style: 'banner' }])).toEqual(['clips[0].overlays[0].style']);
    expect(pathsOf([{ type: 'text', text: 'x', style: 'title', position: 'middle' }])).toEqual(['clips[0].overlays[0].position']);
    expect(pathsOf([{ type: 'text', text: 'x', style: 'title', colour: 'red' }])).toEqual(['clips[0].overlays[0].colour']);
    expect(pathsOf([{ type: 'video', url: 'https://e.com/a.mp4' }])).toEqual(['clips[0].overlays[0].type']);
    expect(pathsOf([{ type: 'image', url: 'ftp://e.com/a.png', size: 0.5, opacity: 2 }])).toEqual([
      'clips[0].overlays[0].url',
      'clips[0].overlays[0].size',
      'clips[0].overlays[0].opacity',
    ]);
    expect(pathsOf('title')).toEqual(['clips[0].overlays']);
  });

  it('say what is wrong in the API words', () => {
    const problems = problemsOf({
      clips: [
        clip({
          overlays: [
            { type: 'text', text: 'x', style: 'title', start: 2, end: 1 },
            { type: 'text', text: 'x'.repeat(limits.overlayText.title.maxChars + 1), style: 'title' },
            { type: 'text', text: 'a\nb\nc', style: 'lower_third' },
            { type: 'text', text: 'x', style: 'title', start: 'soon' },
            { type: 'text', text: 'x', style: 'title', colour: 'red' },
          ],
        }),
      ],
    });
    expect(problems).toEqual([
      { path: 'clips[0].overlays[0].end', message: 'must be after start' },
      { path: 'clips[0].overlays[1].text', message: `must be at most ${limits.overlayText.title.maxChars} characters for a title` },
      { path: 'clips[0].overlays[2].text', message: 'must be at most 2 lines for a lower_third' },
      { path: 'clips[0].overlays[3].start', message: "must be a number of seconds from the clip's start" },
      { path: 'clips[0].overlays[4].colour', message: 'is not an overlay field' },
    ]);
  });

  it(`are at most ${limits.maxOverlays} a clip`, () => {
    const one = { type: 'text', text: 'x', style: 'caption_box' };
    expect(problemsOf({ clips: [clip({ overlays: Array(limits.maxOverlays + 1).fill(one) })] })).toEqual([
      { path: 'clips[0].overlays', message: `must hold at most ${limits.maxOverlays} overlays` },
    ]);
    expect(() => parseCreateVideo(request({ clips: [clip({ overlays: Array(limits.maxOverlays).fill(one) })] }))).not.toThrow();
  });

  it('are documented in the OpenAPI document, with the style words', () => {
    const doc = JSON.stringify(openApiDocument('https://example.com'));
    expect(doc.includes('"overlays"')).toBe(true);
    for (const style of OVERLAY_STYLES) expect(doc.includes(style), style).toBe(true);
    expect(doc.includes(`"enum":${JSON.stringify(THEME_FONTS)}`)).toBe(true);
  });
});

describe('theme', () => {
  it('is read with its defaults, from JSON or a form string', () => {
    expect(parseCreateVideo(request({ clips: [clip()] })).theme).toBeUndefined();
    expect(parseCreateVideo(request({ clips: [clip()], theme: { font: 'Montserrat' } })).theme).toEqual({
      font: 'montserrat',
      primaryColor: '#2B59C3',
      textColor: '#FFFFFF',
    });
    expect(parseCreateVideo(request({ clips: [clip()], theme: '{"primary_color": "#ff8800", "text_color": "#000000"}' })).theme).toEqual({
      font: 'inter',
      primaryColor: '#FF8800',
      textColor: '#000000',
    });
  });

  it('is refused with the path of the field at fault', () => {
    expect(problemsOf({ clips: [clip()], theme: { font: 'comic-sans', primary_color: 'red', text_color: '#12345', shadow: true } })).toEqual([
      { path: 'theme.font', message: `must be one of ${THEME_FONTS.join(', ')}` },
      { path: 'theme.primary_color', message: 'must be a colour as #RRGGBB' },
      { path: 'theme.text_color', message: 'must be a colour as #RRGGBB' },
      { path: 'theme.shadow', message: 'is not a field of theme' },
    ]);
    expect(problemsOf({ clips: [clip()], theme: '{font:' }).map((p) => p.path)).toEqual(['theme']);
  });
});

const kept = keptClip({
  spec: {
    overlays: [{ type: 'text', text: 'Kept title', style: 'title', start: 0, position: 'center' }],
    theme: { font: 'merriweather', primaryColor: '#000000', textColor: '#FFFFFF' },
  },
});

const create = async (fields: Record<string, unknown>): Promise<VideoRecord> =>
  (await createOnMemory(parseCreateVideo(request(fields)), { kept }))[0]!;

describe('overlays and theme on the stored clips', () => {
  it("are each clip's: a kept clip keeps its overlays and takes the video's theme (or none)", async () => {
    const overlays = [{ type: 'text', text: 'Hi', style: 'lower_third', end: 3 }];
    const video = await create({ clips: [clip({ overlays }), { clip_uid: 'clip_abc' }], theme: { font: 'montserrat' } });
    const theme = { font: 'montserrat', primaryColor: '#2B59C3', textColor: '#FFFFFF' };
    expect(video.clips[0]).toMatchObject({
      overlays: [{ type: 'text', text: 'Hi', style: 'lower_third', start: 0, end: 3, position: 'bottom-left' }],
      theme,
    });
    expect(video.clips[1]).toMatchObject({ overlays: kept.spec.overlays, theme, reusedClipUid: 'clip_abc' });
    const plain = await create({ clips: [clip(), { clip_uid: 'clip_abc' }] });
    expect(plain.clips[0]!.overlays).toBeUndefined();
    expect(plain.clips[1]!.theme).toBeUndefined();
    expect(plain.clips[1]!.overlays).toEqual(kept.spec.overlays);
  });

  it('are shown by the presenters as written', async () => {
    const video = await create({
      clips: [
        clip({
          overlays: [
            { type: 'text', text: 'Hi', style: 'title' },
            { type: 'image', url: 'https://e.com/l.png', size: 0.1 },
          ],
        }),
      ],
      theme: { text_color: '#000000' },
    });
    const shown = toPublicVideo(video, 'https://api');
    expect(shown.theme).toEqual({ font: 'inter', primary_color: '#2B59C3', text_color: '#000000' });
    expect(shown.clips[0]!.overlays).toEqual([
      { type: 'text', text: 'Hi', style: 'title', start: 0, end: null, position: 'center' },
      { type: 'image', url: 'https://e.com/l.png', start: 0, end: null, position: 'top-left', size: 0.1, opacity: 1 },
    ]);
    expect(toPublicKeptClip(kept).overlays).toEqual([{ type: 'text', text: 'Kept title', style: 'title', start: 0, end: null, position: 'center' }]);
  });
});

describe("the clip's cache key", () => {
  const ava = BUILT_IN_BOTS.find((b) => b.uid === 'bot_ava')!;
  const voice = voiceToSpeak(ava.voice, undefined, { polly: false });
  const key = (spec: ClipSpec) => cacheKeyOf(spec, { bot: ava, voice });
  const { overlays: _o, theme: _t, ...plain } = kept.spec as ClipSpec;

  it('differs with the overlays (each field of them) and the theme (each field of it)', () => {
    const title = kept.spec.overlays![0] as TextOverlay;
    const keys = [
      key(plain),
      key({ ...plain, overlays: [title] }),
      key({ ...plain, overlays: [{ ...title, text: 'Other' }] }),
      key({ ...plain, overlays: [{ ...title, end: 2 }] }),
      key({ ...plain, overlays: [{ ...title, position: 'top-left' }] }),
      key({ ...plain, overlays: [{ type: 'image', url: 'https://e.com/l.png', start: 0, position: 'top-right', size: 0.1, opacity: 1 }] }),
      key({ ...plain, overlays: [{ type: 'image', url: 'https://e.com/l.png', start: 0, position: 'top-right', size: 0.1, opacity: 0.5 }] }),
      key({ ...plain, overlays: [title], theme: { font: 'inter', primaryColor: '#000000', textColor: '#FFFFFF' } }),
      key({ ...plain, overlays: [title], theme: { font: 'inter', primaryColor: '#000001', textColor: '#FFFFFF' } }),
      key({ ...plain, overlays: [title], theme: { font: 'inter', primaryColor: '#000000', textColor: '#FFFFFE' } }),
      key({ ...plain, overlays: [title], theme: { font: 'montserrat', primaryColor: '#000000', textColor: '#FFFFFF' } }),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    // No overlays at all is the clip's address without the field.
    expect(key({ ...plain, overlays: [] })).toBe(key(plain));
  });

  it('is the same whatever order the stored maps give their keys in (DynamoDB keeps none)', () => {
    const title = kept.spec.overlays![0] as TextOverlay;
    const reversed = <T extends object>(value: T) => Object.fromEntries(Object.entries(value).reverse()) as T;
    const theme = { font: 'inter', primaryColor: '#000000', textColor: '#FFFFFF' } as const;
    expect(key({ ...plain, overlays: [reversed(title)], theme: reversed(theme) })).toBe(key({ ...plain, overlays: [title], theme }));
  });
});

describe('a template with overlays', () => {
  const body = {
    name: 'Welcome',
    theme: { font: 'merriweather' },
    clips: [
      clip({
        overlays: [
          { type: 'text', text: 'Hi {{name}}', style: 'lower_third' },
          { type: 'text', text: 'Fixed', style: 'title' },
        ],
      }),
    ],
  };

  it('names the variables of overlay texts and fills them, markup in a value kept as text', () => {
    const template = parseTemplate('welcome', body);
    expect(template.variables).toEqual([{ name: 'name', required: true }]);
    expect(template.sample.theme).toMatchObject({ font: 'merriweather' });
    const record = {
      tenantId: 'acct_1',
      uid: 'welcome',
      name: 'Welcome',
      request: template.request,
      variables: template.variables,
      createdAt: '',
      updatedAt: '',
    };
    const fields = fieldsFromTemplate(record, { name: '{\\b1}Zoë\\N{\\fnArial}' });
    const command = parseCreateVideo(request(fields));
    const overlays = (command.clips[0] as { overlays: { text: string }[] }).overlays;
    expect(overlays.map((o) => o.text)).toEqual(['Hi {\\b1}Zoë\\N{\\fnArial}', 'Fixed']);
    // The template's saved request is left as it was.
    expect((template.request.clips[0] as { overlays: { text: string }[] }).overlays[0]!.text).toBe('Hi {{name}}');
  });

  it('refuses a placeholder in an overlay field that takes none', () => {
    expect(() => parseTemplate('welcome', { ...body, clips: [clip({ overlays: [{ type: 'text', text: 'x', style: '{{style}}' }] })] })).toThrow(
      expect.objectContaining({ problems: [{ path: 'clips[0].overlays[0].style', message: 'takes no placeholder' }] }),
    );
  });
});
