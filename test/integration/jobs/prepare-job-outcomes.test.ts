/**
 * The prepare job on dynalite and a folder standing in for the bucket: a bot becomes ready with its look's files
 * stored, a builder's LookError fails it with its code leaving nothing, a transient error is retried, a replaced
 * bot leaves no look behind; and the render engine draws a prepared look fetched from the bucket.
 */

import { execFileSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { runQueueJob } from '#commons/jobs';
import { logger } from '#commons/logger';
import { presentAccountBot } from '#commons/presenters/bot';
import { toBot } from '#domain/account-bot';
import { parsePutBot } from '#domain/account-bot-request';
import { putAccountBot } from '#domain/account-bots';
import { lookPrefix } from '#domain/bucket-layout';
import type { BotManifest } from '#domain/look';
import { DEFAULT_SHAPE, frameSizeOf } from '#domain/shape';
import { voiceToSpeak } from '#domain/voices';
import { buildDrawnLook } from '#functions/prepare/drawn-look.ts';
import { LookError, type PreparedLook } from '#functions/prepare/look.ts';
import { prepareJob } from '#functions/prepare/prepare-job.ts';
import { renderClip } from '#functions/render/engine/index.ts';
import { RENDERER_VERSION } from '#functions/render/engine/types.ts';
import { lookDirectories } from '#functions/render/look-cache.ts';
import { EspeakSpeechEngine } from '#functions/render/speech/index.ts';
import { ffmpegPath } from '#media/binaries';
import { cacheKeyOf } from '../../support/cache-key.ts';
import { builtInLookAsPrepared } from '../../support/looks.ts';
import {
  accountBots,
  apiDeps,
  caller,
  footageQueue,
  jobDeps,
  keys,
  notifyQueue,
  objects,
  prepareQueue,
  putPhoto,
  tenantId,
  usePrepareJob,
  voices,
} from '../../support/prepare-job.ts';
import { frameRgb, pixel } from '../../support/render-media.ts';

usePrepareJob();

describe('the prepare job', () => {
  it('makes the bot ready: the look under looks/<tenant>/<uid>/<version>/, the upload removed, bot.ready queued', async () => {
    const { bot, message } = await putPhoto('ready-bot');
    expect(await keys('uploads/')).toEqual([`uploads/${tenantId}/ready-bot/${bot.version}/image`]);
    await runQueueJob(prepareJob, message, 1, 3, jobDeps());
    const stored = await accountBots.get(tenantId, 'ready-bot');
    expect(stored).toMatchObject({ status: 'ready', version: bot.version, look: { version: bot.version, preview: 'preview.png' } });
    // Its event's delivery is recorded on it from the settle on (GET /v1/bot/{uid} shows it).
    expect(stored!.delivery).toEqual({ eventId: `evt_bot_${tenantId}_ready-bot_${bot.version}_ready`, state: 'pending', attempts: [] });
    const leo = builtInLookAsPrepared('leo');
    expect(await keys('looks/')).toEqual([...leo.files.keys()].map((f) => `${lookPrefix(tenantId, 'ready-bot', bot.version)}/${f}`).sort());
    expect(await objects.read(`${lookPrefix(tenantId, 'ready-bot', bot.version)}/body.png`)).toEqual(leo.files.get('body.png'));
    expect(await keys('uploads/')).toEqual([]);
    expect(notifyQueue.take()).toEqual([
      {
        kind: 'deliver-bot',
        tenantId,
        uid: 'ready-bot',
        version: bot.version,
        eventId: `evt_bot_${tenantId}_ready-bot_${bot.version}_ready`,
        attempt: 1,
      },
    ]);
    // A redelivered message finds it settled and only queues its event again (the notifier sends it once).
    await runQueueJob(prepareJob, message, 2, 3, jobDeps());
    expect(notifyQueue.take()).toHaveLength(1);
  });

  it("gives the builder a drawn bot's mouth shapes; the stored look has their frames and lists them", async () => {
    const ava = builtInLookAsPrepared('ava');
    const closed = ava.files.get('head-m0-eo.png')!;
    // Each shape is the closed mouth with a mouth of its own painted on (ava's mouth is at 320,528 of a head frame).
    const shape = (rx: number, ry: number, fill: string) =>
      sharp(closed)
        .composite([
          {
            input: Buffer.from(
              `<svg xmlns="http://www.w3.org/2000/svg" width="${2 * rx}" height="${2 * ry}"><ellipse cx="${rx}" cy="${ry}" rx="${rx}" ry="${ry}" fill="${fill}"/></svg>`,
            ),
            left: 320 - rx,
            top: 522,
          },
        ])
        .png()
        .toBuffer();
    const png = (bytes: Buffer) => ({ bytes, contentType: 'image/png' });
    const files = {
      mouth_closed: png(closed),
      mouth_open: png(ava.files.get('head-m4-eo.png')!),
      mouth_round: png(await shape(24, 34, '#2030c0')),
      mouth_wide: png(await shape(64, 16, '#20a040')),
      mouth_fv: png(await shape(44, 12, '#c02080')),
    };
    await putAccountBot(parsePutBot('shaped', { name: 'Shaped' }, files, voices), caller, apiDeps());
    const message = prepareQueue.take().at(-1)!;
    await runQueueJob(prepareJob, message, 1, 3, jobDeps({ buildDrawnLook }));
    const stored = (await accountBots.get(tenantId, 'shaped'))!;
    expect(stored.status).toBe('ready');
    const manifest = JSON.parse((await objects.read(`${lookPrefix(tenantId, 'shaped', stored.version)}/manifest.json`)).toString()) as BotManifest;
    expect(manifest.mouthShapes).toEqual(['round', 'wide', 'fv']);
    for (const frame of ['r1', 'r2', 'w1', 'w2', 'fv'])
      expect(stored.look!.files).toEqual(expect.arrayContaining([`head-${frame}-eo.png`, `head-${frame}-ec.png`]));
    expect(await keys('uploads/')).toEqual([]);
  });

  it("fails the bot with the builder's code (no retry), leaving no look and no upload", async () => {
    const { message } = await putPhoto('no-face');
    const build = async (): Promise<PreparedLook> => {
      throw new LookError('no_face_found', 'no face was found in the photo');
    };
    await runQueueJob(prepareJob, message, 1, 3, jobDeps({ buildPhotoLook: build }));
    expect(await accountBots.get(tenantId, 'no-face')).toMatchObject({
      status: 'failed',
      error: { code: 'no_face_found', message: 'no face was found in the photo' },
    });
    expect(await keys()).toEqual([]);
    expect(notifyQueue.take().map((m) => m.eventId)).toEqual([expect.stringMatching(/_failed$/)]);
  });

  it("logs a builder's detail (a library's own text) and never stores or shows it", async () => {
    const { message } = await putPhoto('damaged');
    const detail = 'VipsJpeg: Premature end of JPEG file';
    const build = async (): Promise<PreparedLook> => {
      throw new LookError('image_invalid', 'image cannot be decoded: it is damaged or not a complete image', detail);
    };
    const warn = vi.spyOn(logger, 'warn');
    try {
      await runQueueJob(prepareJob, message, 1, 3, jobDeps({ buildPhotoLook: build }));
      expect(warn).toHaveBeenCalledWith('bot image refused', expect.objectContaining({ bot_uid: 'damaged', code: 'image_invalid', detail }));
    } finally {
      warn.mockRestore();
    }
    const stored = (await accountBots.get(tenantId, 'damaged'))!;
    expect(stored.error).toEqual({ code: 'image_invalid', message: 'image cannot be decoded: it is damaged or not a complete image' });
    const shown = JSON.stringify(await presentAccountBot(stored, objects, voices));
    expect(shown).toContain('image cannot be decoded');
    expect(shown).not.toContain('Vips');
  });

  it('retries a transient error (rethrown, still preparing, nothing stored) and fails as preparation_failed on the last receive', async () => {
    const { message } = await putPhoto('flaky');
    const reset = () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    let writes = 0;
    // The third file's write fails: the two before it must not stay.
    const failingObjects = {
      ...objects,
      delete: (k: string) => objects.delete(k),
      head: (k: string) => objects.head(k),
      getToFile: (k: string, path: string) => objects.getToFile(k, path),
      copy: objects.copy.bind(objects),
      putBytes: async (k: string, b: Uint8Array | string, o: { contentType: string }) => {
        if (++writes === 3) throw reset();
        return objects.putBytes(k, b, o);
      },
    };
    await expect(runQueueJob(prepareJob, message, 1, 3, jobDeps({ objects: failingObjects }))).rejects.toThrow('ECONNRESET');
    expect(await accountBots.get(tenantId, 'flaky')).toMatchObject({ status: 'preparing' });
    expect(await keys('looks/')).toEqual([]);
    expect(notifyQueue.take()).toEqual([]);

    await expect(
      runQueueJob(
        prepareJob,
        message,
        3,
        3,
        jobDeps({
          buildPhotoLook: async () => {
            throw reset();
          },
        }),
      ),
    ).rejects.toThrow('ECONNRESET');
    expect(await accountBots.get(tenantId, 'flaky')).toMatchObject({ status: 'failed', error: { code: 'preparation_failed' } });
    expect(await keys()).toEqual([]);
  });

  it('fails an image_url that is refused or too large with image_unavailable / image_too_large', async () => {
    const { JobFailedError } = await import('#domain/errors');
    const command = parsePutBot('by-url', { name: 'U', image_url: 'https://images.test/huge.jpg' }, {}, voices);
    await putAccountBot(command, caller, apiDeps());
    await runQueueJob(
      prepareJob,
      prepareQueue.take()[0]!,
      1,
      3,
      jobDeps({
        fetchImage: async () => {
          throw new JobFailedError('image_too_large', 'the image is larger than 10 MB');
        },
      }),
    );
    expect(await accountBots.get(tenantId, 'by-url')).toMatchObject({ status: 'failed', error: { code: 'image_too_large' } });
    expect(notifyQueue.take()).toEqual([]); // no webhook was given
  });

  it('replacing re-prepares under a new version and retires the old look to retired-looks/; a version replaced mid-way leaves nothing', async () => {
    const first = await putPhoto('replaced');
    await runQueueJob(prepareJob, first.message, 1, 3, jobDeps());
    const second = await putPhoto('replaced');
    expect(second.bot.version).not.toBe(first.bot.version);
    // While the new version prepares, the bot is not usable and its old look still exists.
    expect(await accountBots.get(tenantId, 'replaced')).toMatchObject({ status: 'preparing', version: second.bot.version });
    // The stale first message runs again: dropped, nothing written.
    await runQueueJob(prepareJob, first.message, 2, 3, jobDeps());
    await runQueueJob(prepareJob, second.message, 1, 3, jobDeps({ buildPhotoLook: async () => builtInLookAsPrepared('maya') }));
    expect(await accountBots.get(tenantId, 'replaced')).toMatchObject({ status: 'ready', look: { version: second.bot.version } });
    expect((await keys('looks/')).every((k) => k.startsWith(lookPrefix(tenantId, 'replaced', second.bot.version)))).toBe(true);
    // The first look, byte for byte, under retired-looks/ (clips accepted before the replacement render with it),
    // and listed on the record so that deleting the bot removes it.
    const leo = builtInLookAsPrepared('leo');
    expect(await keys('retired-looks/')).toEqual(
      [...leo.files.keys()].map((f) => `retired-${lookPrefix(tenantId, 'replaced', first.bot.version)}/${f}`).sort(),
    );
    expect(await objects.read(`retired-${lookPrefix(tenantId, 'replaced', first.bot.version)}/body.png`)).toEqual(leo.files.get('body.png'));
    expect((await accountBots.get(tenantId, 'replaced'))!.retiredLooks).toEqual([
      expect.objectContaining({ version: first.bot.version, preview: 'preview.png' }),
    ]);

    // Replaced while its look was being built: its files go again.
    const third = await putPhoto('replaced');
    await runQueueJob(
      prepareJob,
      third.message,
      1,
      3,
      jobDeps({
        buildPhotoLook: async () => {
          await putPhoto('replaced');
          return builtInLookAsPrepared('otto');
        },
      }),
    );
    expect((await keys('looks/')).some((k) => k.includes(third.bot.version))).toBe(false);
  });

  it("stores what a video bot's recording lacks with its look, shown by the bot and its bot.ready event's data", async () => {
    const command = parsePutBot('twin', { name: 'Twin', video_url: 'https://example.com/me.mp4', consent: true }, {}, voices);
    const bot = await putAccountBot(command, caller, apiDeps());
    const message = footageQueue.take().at(-1)!;
    const ava = builtInLookAsPrepared('ava');
    const footage = {
      width: 400,
      height: 400,
      fps: 30,
      file: 'footage.mp4',
      frames: 300,
      loop: { file: 'loop.mp4', from: 0, to: 120 },
      track: 'track.json',
      reference: [],
      eyePx: 80,
      atlas: 'mouths.png',
      samples: ['m0', 'm1', 'm2', 'm3', 'w1'].map((frame) => ({ frame })),
      listening: [],
    } as unknown as NonNullable<BotManifest['footage']>;
    // A recording that never rounds the lips and never pauses (as recording 2 of docs/video-bots.md).
    const look = { ...ava, manifest: { ...ava.manifest, mouthShapes: ['wide' as const], footage } };
    await runQueueJob(prepareJob, message, 1, 3, jobDeps({ buildFootageLook: async () => look }));
    const stored = (await accountBots.get(tenantId, 'twin'))!;
    expect(stored).toMatchObject({ status: 'ready', version: bot.version, look: { recordingSeconds: 10 } });
    expect(stored.look!.warnings!.map((w) => w.code)).toEqual(['no_listening_pause', 'no_rounded_lips']);
    // GET /v1/bot/{uid}, the listings and bot.ready's data are this presentation (the notifier's drops only its delivery).
    const shown = await presentAccountBot(stored, objects, voices);
    expect(shown.footage).toEqual({ recording_seconds: 10, background_removable: false, warnings: stored.look!.warnings });
  });
});

describe('rendering a prepared bot', () => {
  it('draws the look fetched from the bucket, and a replaced look is a different clip in the render cache', async () => {
    const { bot, message } = await putPhoto('on-screen');
    await runQueueJob(prepareJob, message, 1, 3, jobDeps());
    const own = (await accountBots.get(tenantId, 'on-screen'))!;
    const root = await mkdtemp(join(tmpdir(), 'prepared-render-'));
    const lookDirectory = await lookDirectories(objects, join(root, 'looks'))(own, own.look!);
    expect(lookDirectory).toBe(join(root, 'looks', tenantId, 'on-screen', bot.version));
    const output = await renderClip({
      bot: toBot(own),
      lookDirectory,
      frame: frameSizeOf(DEFAULT_SHAPE),
      voice: voiceToSpeak(toBot(own).voice, undefined, { polly: false }),
      text: 'A bot of my own.',
      position: 'center',
      removeBotBackground: false,
      backgroundVolume: 0,
      transitions: {},
      mode: 'video',
      workDir: await mkdtemp(join(root, 'clip-')),
      speech: new EspeakSpeechEngine(),
    });
    expect(output.durationSeconds).toBeGreaterThan(0.5);
    const framePng = join(root, 'frame.png');
    execFileSync(ffmpegPath(), ['-v', 'error', '-ss', '0.5', '-i', output.path, '-frames:v', '1', '-y', framePng]);
    console.log(`a frame of the prepared bot: ${framePng}`);
    // Leo's panel stands in the centre of the frame: not the default backdrop's colour there.
    const frame = await frameRgb(output.path, 0.5);
    const centre = pixel(frame, 640, 360);
    const corner = pixel(frame, 10, 10);
    expect(Math.hypot(centre[0]! - corner[0]!, centre[1]! - corner[1]!, centre[2]! - corner[2]!)).toBeGreaterThan(30);

    const clip = {
      index: 0,
      clipName: 'c',
      botUid: 'on-screen',
      text: 't',
      position: 'center' as const,
      removeBotBackground: false,
      backgroundVolume: 0,
      transitions: {},
      reusable: false,
    };
    const replaced = { ...own, look: { ...own.look!, version: 'v_other' } };
    expect(cacheKeyOf(clip, { tenantId, bot: toBot(own), rendererVersion: RENDERER_VERSION })).not.toBe(
      cacheKeyOf(clip, { tenantId, bot: toBot(replaced), rendererVersion: RENDERER_VERSION }),
    );
  }, 60_000);
});
