/**
 * The engine's output, pinned: every clip kind, shape and scene layer rendered small and short, and the hashes of
 * its picture, sound and poster (ffmpeg's `framemd5` of what the filter graph hands the encoders) compared with
 * the values in test/fixtures/render/frame-hashes.json. A refactor of the engine keeps them all; a change that
 * alters pixels or sound shows here, case by case, and bumps RENDERER_VERSION with the values recorded again:
 * `FRAME_HASHES=record npx vitest run test/integration/render/frame-hashes.test.ts`.
 * The looks a photo and a drawing make are pinned too (the bytes of every file), as are the voice clip's MP3 frames.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Bot, BUILT_IN_BOTS } from '#domain/bot';
import { frameSizeOf } from '#domain/shape';
import { voiceToSpeak } from '#domain/voices';
import { inspectBackground } from '#functions/media/background-media.ts';
import { inspectImage } from '#functions/media/image-media.ts';
import { buildDrawnLook } from '#functions/prepare/drawn-look.ts';
import type { PreparedLook } from '#functions/prepare/look.ts';
import { buildPhotoLook, loadPhotoModels } from '#functions/prepare/photo-look.ts';
import { RENDERER_VERSION, type RenderClipInput, renderClip } from '#functions/render/engine/index.ts';
import { EspeakSpeechEngine } from '#functions/render/speech/index.ts';
import { makeSampleBackground } from '#infra/scripts/make-sample-background.ts';
import { avaDrawing } from '../../support/ava-drawings.ts';
import { hashedCases } from '../../support/frame-hash-cases.ts';

/** Each video run's outputs become `framemd5` listings of the same streams, so the hashes do not depend on x264's threads. */
vi.mock('#media/media', async (importOriginal) => {
  const media = await importOriginal<typeof import('#media/media')>();
  const { framemd5Outputs } = await import('../../support/frame-hash-cases.ts');
  return { ...media, runFfmpeg: (args: string[], options: Parameters<typeof media.runFfmpeg>[1]) => media.runFfmpeg(framemd5Outputs(args), options) };
});

const FIXTURE = join(import.meta.dirname, '../../fixtures/render/frame-hashes.json');
const RECORD = process.env.FRAME_HASHES === 'record';
const speech = new EspeakSpeechEngine();
const sha = (data: Buffer | string) => createHash('sha256').update(data).digest('hex').slice(0, 24);
/** A framemd5 listing without its header (which names the muxer's version), hashed. */
const listingHash = (path: string) => {
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l && !l.startsWith('#'));
  return { frames: lines.length, hash: sha(lines.join('\n')) };
};

interface Recorded {
  renderer: string;
  looks: Record<string, Record<string, string>>;
  clips: Record<string, unknown>;
}
const expected: Recorded = existsSync(FIXTURE) ? JSON.parse(readFileSync(FIXTURE, 'utf8')) : { renderer: '', looks: {}, clips: {} };
const recorded: Recorded = { renderer: RENDERER_VERSION, looks: {}, clips: {} };

let root: string;
const media: Partial<Record<'tone' | 'plasma' | 'still' | 'colour' | 'logo' | 'sticker', string>> = {};
const looks: Record<string, { bot: Bot; lookDirectory: string }> = {};

function writeLook(name: string, look: PreparedLook) {
  const dir = join(root, `look-${name}`);
  mkdirSync(dir, { recursive: true });
  for (const [file, data] of look.files) writeFileSync(join(dir, file), data);
  const bot = { ...BUILT_IN_BOTS[0]!, uid: `my_${name}_bot`, name, look: look.manifest.look };
  looks[name] = { bot, lookDirectory: dir };
  return Object.fromEntries([...look.files].sort(([a], [b]) => a.localeCompare(b)).map(([file, data]) => [file, sha(data)]));
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'vidbot-frame-hashes-'));
  const transparentBorder = Buffer.alloc(200 * 100 * 4);
  for (let y = 20; y < 80; y++) for (let x = 20; x < 180; x++) transparentBorder.set([255, 0, 255, 255], (y * 200 + x) * 4);
  await Promise.all([
    makeSampleBackground(join(root, 'tone.mp4'), { seconds: 2, width: 640, height: 360, pattern: 'plasma', audio: 'tone', toneHz: 1000 }),
    makeSampleBackground(join(root, 'plasma.mp4'), { seconds: 1, width: 360, height: 640, pattern: 'plasma', audio: 'none' }),
    sharp({ create: { width: 400, height: 300, channels: 3, background: { r: 200, g: 120, b: 40 } } })
      .composite([{ input: Buffer.from('<svg width="400" height="300"><circle cx="200" cy="150" r="90" fill="#2050c0"/></svg>') }])
      .webp({ lossless: true })
      .toFile(join(root, 'still.webp')),
    sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 40, g: 160, b: 90 } } })
      .png()
      .toFile(join(root, 'colour.png')),
    sharp(transparentBorder, { raw: { width: 200, height: 100, channels: 4 } })
      .png()
      .toFile(join(root, 'logo.png')),
    sharp({ create: { width: 120, height: 120, channels: 4, background: { r: 250, g: 220, b: 30, alpha: 0.8 } } })
      .png()
      .toFile(join(root, 'sticker.png')),
  ]);
  for (const name of ['tone', 'plasma'] as const) media[name] = join(root, `${name}.mp4`);
  media.still = join(root, 'still.webp');
  media.colour = join(root, 'colour.png');
  media.logo = join(root, 'logo.png');
  media.sticker = join(root, 'sticker.png');

  await loadPhotoModels();
  recorded.looks.photo = writeLook('photo', await buildPhotoLook(readFileSync(join(import.meta.dirname, '../../fixtures/prepare/portrait.jpg'))));
  recorded.looks.drawn = writeLook(
    'drawn',
    await buildDrawnLook({
      mouthClosed: await avaDrawing('m0-eo'),
      mouthOpen: await avaDrawing('m4-eo'),
      eyesClosed: await avaDrawing('m0-ec'),
      shapes: { round: await avaDrawing('r2-eo'), wide: await avaDrawing('w2-eo'), fv: await avaDrawing('fv-eo') },
    }),
  );
}, 240_000);

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  if (RECORD) writeFileSync(FIXTURE, `${JSON.stringify(recorded, null, 2)}\n`);
});

describe('frame hashes', () => {
  it('the photo and drawn looks are built byte for byte as recorded', () => {
    if (RECORD) return;
    expect(recorded.renderer).toBe(expected.renderer);
    expect(recorded.looks).toEqual(expected.looks);
  });

  for (const [name, clip] of Object.entries(hashedCases)) {
    it(`${name}: picture, sound and poster as recorded`, async () => {
      const workDir = join(root, name);
      mkdirSync(workDir, { recursive: true });
      const look = clip.look ? looks[clip.look]! : { bot: BUILT_IN_BOTS.find((b) => b.look === (clip.builtIn ?? 'ava'))! };
      const background = clip.background && (await inspectBackground(media[clip.background]!, workDir));
      const imageLayers = await Promise.all(
        (clip.images ?? []).map(async ({ file, ...layer }) => ({ ...layer, image: await inspectImage(media[file]!) })),
      );
      const input: RenderClipInput = {
        ...look,
        text: clip.text ?? 'Hi there.',
        voice: voiceToSpeak(look.bot.voice, undefined, { polly: false }),
        position: clip.position ?? 'bottom-right',
        removeBotBackground: false,
        backgroundVolume: 0,
        transitions: {},
        mode: 'video',
        ...clip.input,
        ...(background && { background }),
        ...(imageLayers.length && { imageLayers }),
        frame: frameSizeOf(clip.shape ?? { aspectRatio: '16:9', resolution: '720p' }),
        workDir,
        speech,
      };
      const output = await renderClip(input);
      const result =
        input.mode === 'voice'
          ? { duration: output.durationSeconds, cues: output.cues.length, voice: await voiceListing(output.path, workDir) }
          : {
              duration: output.durationSeconds,
              cues: output.cues.length,
              burned: output.captionsBurned,
              video: listingHash(join(workDir, 'video.framemd5')),
              audio: listingHash(join(workDir, 'audio.framemd5')),
              poster: listingHash(join(workDir, 'poster.framemd5')),
            };
      recorded.clips[name] = result;
      if (!RECORD) expect(result).toEqual(expected.clips[name]);
    }, 120_000);
  }
});

/** The voice clip's MP3, decoded to a framemd5 listing (libmp3lame is deterministic), hashed. */
async function voiceListing(mp3: string, workDir: string) {
  const { runFfmpeg } = await import('#media/media');
  const listing = join(workDir, 'voice.framemd5');
  await runFfmpeg(['-y', '-i', mp3, '-f', 'framemd5', listing], { budgetSeconds: 60 });
  return listingHash(listing);
}
