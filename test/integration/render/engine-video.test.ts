/**
 * The media engine with real ffmpeg, rendering video: placement, backdrop removal, background volume, durations,
 * output format, every transition, the clip timing and the compositor. Texts are short to keep the file fast.
 */
import { readFileSync } from 'node:fs';
import { imageSize } from 'image-size';
import { beforeAll, describe, expect, it } from 'vitest';
import { BOT_POSITIONS, ENTRY_TRANSITIONS, EXIT_TRANSITIONS } from '#domain/choices';
import { posterSecondsOf, TRANSITION_SECONDS, type Transitions } from '#domain/clip';
import { clipTiming } from '#functions/render/engine/clip-timeline.ts';
import { botHeightFor } from '#functions/render/engine/layout.ts';
import { rigFor } from '#functions/render/engine/rigs/rig.ts';
import { loadSprites } from '#functions/render/engine/sprites.ts';
import { probeFile } from '../../support/media.ts';
import { botRect, FRAME, greenWithTone, render, silentBackground, TINY, useEngineBackgrounds } from '../../support/render-engine.ts';
import { audioSamples, colourDistance, dbfs, frameRgb, pictureRgb, pixel, rms, shareDiffering, topLevelBoxes } from '../../support/render-media.ts';

const shrink = (r: { x: number; y: number; w: number; h: number }, f: number) => ({
  x: Math.round(r.x + (r.w * f) / 2),
  y: Math.round(r.y + (r.h * f) / 2),
  w: Math.round(r.w * (1 - f)),
  h: Math.round(r.h * (1 - f)),
});

function meanAbsDiff(a: Buffer, b: Buffer, r: { x: number; y: number; w: number; h: number }) {
  let sum = 0;
  for (let y = r.y; y < r.y + r.h; y++) for (let x = r.x; x < r.x + r.w; x++) sum += colourDistance(pixel(a, x, y), pixel(b, x, y));
  return sum / (r.w * r.h);
}

const expectDuration = async (path: string, expected: number) => {
  const info = await probeFile(path);
  expect(Math.abs(Number(info.format.duration) - expected)).toBeLessThanOrEqual(0.1);
};

useEngineBackgrounds();

describe('layout', () => {
  it('places the bot inside the frame for all nine positions, each somewhere else', () => {
    const seen = new Set<string>();
    for (const position of BOT_POSITIONS) {
      const { x, y, w, h } = botRect(position);
      expect(x).toBeGreaterThanOrEqual(0);
      expect(y).toBeGreaterThanOrEqual(0);
      expect(x + w).toBeLessThanOrEqual(FRAME.width);
      expect(y + h).toBeLessThanOrEqual(FRAME.height);
      seen.add(`${x},${y}`);
    }
    expect(seen.size).toBe(BOT_POSITIONS.length);
  });
});

describe('renderClip (video)', () => {
  // Rendered once, measured by several tests.
  let withPanel: Awaited<ReturnType<typeof render>>;
  let withoutPanel: Awaited<ReturnType<typeof render>>;
  let fades: Awaited<ReturnType<typeof render>>;

  beforeAll(async () => {
    withPanel = await render({ background: greenWithTone, backgroundVolume: 0, transitions: { entry: 'zoom_in' } });
    withoutPanel = await render({
      background: greenWithTone,
      backgroundVolume: 1,
      removeBotBackground: true,
      transitions: { entry: 'zoom_in', exit: 'zoom_out' },
    });
    fades = await render({
      background: silentBackground,
      backgroundVolume: 1,
      position: 'bottom-center',
      transitions: { entry: 'fade_in', exit: 'fade_out' },
    });
  }, 60_000);

  it('writes the poster in the same pass: the finished frame half a second after the entry transition', async () => {
    expect(fades.posterPath).toBeDefined();
    const jpeg = readFileSync(fades.posterPath!);
    expect(imageSize(jpeg)).toMatchObject({ type: 'jpg', width: FRAME.width, height: FRAME.height });
    const at = posterSecondsOf({ entry: 'fade_in', exit: 'fade_out' }, fades.durationSeconds);
    expect(at).toBeCloseTo(TRANSITION_SECONDS + 0.5, 6);
    // The same picture as the encoded clip's frame at that moment (the poster skips the video encoder's loss),
    // and not the black of the fade-in.
    const [poster, clipFrame, black] = await Promise.all([pictureRgb(fades.posterPath!), frameRgb(fades.path, at), frameRgb(fades.path, 0)]);
    const meanDifference = (a: Buffer, b: Buffer) => a.reduce((sum, v, i) => sum + Math.abs(v - b[i]!), 0) / a.length;
    expect(meanDifference(poster, clipFrame)).toBeLessThan(4);
    expect(meanDifference(poster, black)).toBeGreaterThan(20);
  });

  it('puts the bot where asked: top-left differs from the background, the opposite corner does not', async () => {
    const frame = await frameRgb(withPanel.path, TRANSITION_SECONDS + 0.5);
    const rect = botRect('top-left');
    const background = pixel(frame, 640, 700);
    const opposite = { x: FRAME.width - rect.w - rect.x, y: FRAME.height - rect.h - rect.y, w: rect.w, h: rect.h };
    expect(shareDiffering(frame, shrink(rect, 0.2), background)).toBeGreaterThan(0.9);
    expect(shareDiffering(frame, opposite, background)).toBeLessThan(0.01);
  });

  it('shows the bot panel unless removeBotBackground, then the figure stands on the background', async () => {
    const [framePanel, frameBare] = await Promise.all([
      frameRgb(withPanel.path, TRANSITION_SECONDS + 0.5),
      frameRgb(withoutPanel.path, TRANSITION_SECONDS + 0.5),
    ]);
    const { x, y, sprites } = botRect('top-left');
    // Inside the panel's top-left, away from the figure.
    const px = x + Math.round(70 * sprites.scale);
    const py = y + Math.round(70 * sprites.scale);
    const background = pixel(framePanel, 640, 700);
    expect(colourDistance(pixel(framePanel, px, py), background)).toBeGreaterThan(80);
    expect(colourDistance(pixel(frameBare, px, py), background)).toBeLessThan(12);
    // The figure itself is still there without its panel.
    expect(shareDiffering(frameBare, shrink(botRect('top-left'), 0.45), background)).toBeGreaterThan(0.5);
  });

  it('without its card, a bot stands on the bottom edge at a bottom position, and fades out higher up', async () => {
    const standing = await render({ position: 'bottom-right', removeBotBackground: true, background: greenWithTone });
    const [onEdge, floating] = await Promise.all([frameRgb(standing.path, 0.5), frameRgb(withoutPanel.path, TRANSITION_SECONDS + 0.5)]);
    const background = pixel(floating, 640, 700);
    // bottom-right: the bust reaches the last row of the picture.
    const right = botRect('bottom-right');
    const centreX = right.x + Math.round(right.w / 2);
    expect(colourDistance(pixel(onEdge, centreX, FRAME.height - 1), background)).toBeGreaterThan(60);
    // top-left: opaque bust above the fade, background where the card's bottom edge was.
    const { x, y, w, sprites } = botRect('top-left');
    const panel = sprites.manifest.panel;
    const bottom = y + Math.round((panel.y + panel.height) * sprites.scale);
    const height = panel.height * sprites.scale;
    const cx = x + Math.round(w / 2);
    expect(colourDistance(pixel(floating, cx, Math.round(bottom - height * 0.3)), background)).toBeGreaterThan(60);
    expect(colourDistance(pixel(floating, cx, bottom - 2), background)).toBeLessThan(20);
  });

  it('mixes the background audio by backgroundVolume: 0 is silent, 1 is clearly audible', async () => {
    // The entry transition plays before the speech: only the background can be heard there.
    const window = { start: 0.05, duration: TRANSITION_SECONDS - 0.15 };
    const [muted, full] = await Promise.all([audioSamples(withPanel.path, window), audioSamples(withoutPanel.path, window)]);
    console.log(`background tone before the speech: volume 0 → ${dbfs(rms(muted)).toFixed(1)} dBFS, volume 1 → ${dbfs(rms(full)).toFixed(1)} dBFS`);
    expect(dbfs(rms(muted))).toBeLessThan(-60);
    expect(dbfs(rms(full))).toBeGreaterThan(-20);
    const [wholeMuted, wholeFull] = await Promise.all([audioSamples(withPanel.path), audioSamples(withoutPanel.path)]);
    expect(rms(wholeFull)).toBeGreaterThan(rms(wholeMuted) * 1.2);
  });

  it('works with a background that has no audio stream', async () => {
    const info = await probeFile(fades.path);
    expect(info.streams.some((s) => s.codec_type === 'audio')).toBe(true);
  });

  it('lasts as long as the speech plus its transitions', async () => {
    await expectDuration(withPanel.path, withPanel.speech.durationSeconds + TRANSITION_SECONDS);
    await expectDuration(withoutPanel.path, withoutPanel.speech.durationSeconds + 2 * TRANSITION_SECONDS);
    await expectDuration(fades.path, fades.speech.durationSeconds + 2 * TRANSITION_SECONDS);
    expect(withPanel.durationSeconds).toBeCloseTo(withPanel.speech.durationSeconds + TRANSITION_SECONDS, 2);
  });

  it('reports where its time went: speech, setup, the ffmpeg pass and the drawing inside it', () => {
    const t = fades.timings!;
    for (const ms of [t.speechMs, t.setupMs, t.firstFrameMs, t.drawMs, t.encodeMs]) expect(Number.isInteger(ms) && ms >= 0).toBe(true);
    expect(t.speechMs).toBeGreaterThan(0);
    expect(t.encodeMs).toBeGreaterThan(0);
    expect(t.firstFrameMs).toBeGreaterThanOrEqual(t.speechMs + t.setupMs);
    expect(t.drawMs).toBeLessThanOrEqual(t.encodeMs);
  });

  it('writes 1280x720 30 fps H.264 yuv420p with AAC, moov before mdat', async () => {
    const info = await probeFile(fades.path);
    const video = info.streams.find((s) => s.codec_type === 'video')!;
    const audio = info.streams.find((s) => s.codec_type === 'audio')!;
    expect(video).toMatchObject({ codec_name: 'h264', width: 1280, height: 720, pix_fmt: 'yuv420p', r_frame_rate: '30/1' });
    expect(audio.codec_name).toBe('aac');
    expect(fades.contentType).toBe('video/mp4');
    const boxes = topLevelBoxes(fades.path);
    expect(boxes.indexOf('moov')).toBeGreaterThanOrEqual(0);
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
  });

  it('fades from and to black, video and audio', async () => {
    const duration = Number((await probeFile(fades.path)).format.duration);
    const [first, middle, last] = await Promise.all([
      frameRgb(fades.path, 0),
      frameRgb(fades.path, duration / 2),
      frameRgb(fades.path, duration - 0.04),
    ]);
    const whole = { x: 0, y: 0, w: FRAME.width, h: FRAME.height };
    expect(shareDiffering(first, whole, [0, 0, 0], 30)).toBeLessThan(0.02);
    expect(shareDiffering(last, whole, [0, 0, 0], 60)).toBeLessThan(0.05);
    expect(shareDiffering(middle, whole, [0, 0, 0], 30)).toBeGreaterThan(0.9);
  });

  it('zoom_in grows the bot from nothing', async () => {
    const [start, settled] = await Promise.all([frameRgb(withPanel.path, 0), frameRgb(withPanel.path, TRANSITION_SECONDS + 0.5)]);
    const rect = shrink(botRect('top-left'), 0.2);
    expect(shareDiffering(start, rect, pixel(start, 640, 700))).toBeLessThan(0.05);
    expect(shareDiffering(settled, rect, pixel(settled, 640, 700))).toBeGreaterThan(0.9);
  });

  it.each([
    ['slide_in_left', 'slide_out_right'],
    ['slide_in_right', 'slide_out_left'],
    ['slide_in_up', 'slide_out_down'],
    ['wipe_in', 'wipe_out'],
  ] as const)(
    '%s / %s move the bot (or the picture) in and out',
    async (entry, exit) => {
      const clip = await render({ text: TINY, position: 'bottom-right', transitions: { entry, exit } });
      await expectDuration(clip.path, clip.speech.durationSeconds + 2 * TRANSITION_SECONDS);
      const duration = Number((await probeFile(clip.path)).format.duration);
      const [first, middle, last] = await Promise.all([
        frameRgb(clip.path, 0),
        frameRgb(clip.path, TRANSITION_SECONDS + 0.1),
        frameRgb(clip.path, duration - 0.04),
      ]);
      const rect = shrink(botRect('bottom-right'), 0.2);
      expect(meanAbsDiff(first, middle, rect)).toBeGreaterThan(40);
      expect(meanAbsDiff(last, middle, rect)).toBeGreaterThan(40);
    },
    30_000,
  );

  it('covers every transition name', () => {
    const tested = new Set([
      'zoom_in',
      'zoom_out',
      'fade_in',
      'fade_out',
      'slide_in_left',
      'slide_out_right',
      'slide_in_right',
      'slide_out_left',
      'slide_in_up',
      'slide_out_down',
      'wipe_in',
      'wipe_out',
    ]);
    for (const name of [...ENTRY_TRANSITIONS, ...EXIT_TRANSITIONS]) expect(tested.has(name)).toBe(true);
  });
});

describe('clip timing', () => {
  it.each<[Transitions, number]>([
    [{}, 2],
    [{ entry: 'fade_in' }, 2.6],
    [{ entry: 'wipe_in', exit: 'zoom_out' }, 3.2],
  ])('%o lasts speech + transitions', (transitions, total) => {
    expect(clipTiming(2, transitions).totalSeconds).toBeCloseTo(total, 6);
  });
});

describe('compositor', () => {
  it('reuses the frame drawn before for a repeated pose, with the pixels a fresh drawing gives', () => {
    const sprites = loadSprites('ava', botHeightFor(FRAME, 'bottom-right'));
    const pose = { mouth: { frame: 'm2' }, eyesOpen: true, bodyX: 1, bodyY: 0, headX: -1, headY: 1 };
    const other = { ...pose, mouth: { frame: 'm0' }, eyesOpen: false };
    const compositor = rigFor(sprites, { withPanel: true });
    const first = Buffer.from(compositor.render(pose));
    const again = compositor.render(pose);
    expect(again.equals(first)).toBe(true);
    const changed = Buffer.from(compositor.render(other));
    expect(changed.equals(first)).toBe(false);
    expect(compositor.render(pose).equals(first)).toBe(true);
    expect(rigFor(sprites, { withPanel: true }).render(other).equals(changed)).toBe(true);
    // A zoomed frame of the same pose is another frame.
    expect(compositor.render(pose, 0.5).equals(first)).toBe(false);
    expect(compositor.render(pose).equals(first)).toBe(true);
  });
});
