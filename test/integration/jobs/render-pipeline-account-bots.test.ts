/**
 * The render pipeline on dynalite, with stand-ins for the media steps: a bot of the account replaced or deleted while
 * its videos wait renders with the look and voice each video was accepted with, or fails as bot_not_found.
 */

import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { DynamoAccountBotStore } from '#commons/aws/dynamo-account-bots';
import { runQueueJob } from '#commons/jobs';
import { parsePutBot } from '#domain/account-bot-request';
import { deleteAccountBot, putAccountBot } from '#domain/account-bots';
import { lookPrefix } from '#domain/bucket-layout';
import { ConflictError } from '#domain/errors';
import type { DeliverBotMessage, PrepareBotMessage } from '#domain/messages';
import { prepareJob } from '#functions/prepare/prepare-job.ts';
import { renderJob } from '#functions/render/clip-job.ts';
import { lookDirectories } from '#functions/render/look-cache.ts';
import { liveAccountsOnly, RecordingQueue } from '../../support/fakes.ts';
import { builtInLookAsPrepared } from '../../support/looks.ts';
import { caller, clipDeps, objects, renderClip, renderQueue, submit, useRenderPipeline, videoInput, videos } from '../../support/render-pipeline.ts';

const clock = new Date('2026-11-22T10:00:00Z');
useRenderPipeline(() => clock);

describe('a bot of the account replaced while its videos wait', () => {
  const prepareQueue = new RecordingQueue<PrepareBotMessage>();
  const botEvents = new RecordingQueue<DeliverBotMessage>();
  let versions = 0;
  /** PUT /v1/bot/pinned from a photo with `voice`, prepared (unless `prepare` is false) into the built-in `look`. */
  async function putBot(voice: string, look: string, prepare = true) {
    const command = parsePutBot(
      'pinned',
      { name: 'Pinned', voice },
      { image: { bytes: builtInLookAsPrepared('ava').files.get('preview.png')!, contentType: 'image/png' } },
      { polly: false },
    );
    const deps = {
      accountBots: clipDeps.accountBots as DynamoAccountBotStore,
      accounts: liveAccountsOnly,
      objects,
      prepareQueue,
      footageQueue: new RecordingQueue<PrepareBotMessage>(),
      now: () => clock,
      newVersion: () => `v_pin${++versions}`,
    };
    const bot = await putAccountBot(command, caller, deps);
    const message = prepareQueue.take()[0]!;
    const prepareNow = () =>
      runQueueJob(prepareJob, message, 1, 3, {
        accountBots: deps.accountBots,
        objects,
        notifyQueue: botEvents,
        now: () => clock,
        readObject: async (key) => (objects.has(key) ? objects.read(key) : undefined),
        buildPhotoLook: async () => builtInLookAsPrepared(look),
        buildDrawnLook: async () => builtInLookAsPrepared(look),
        buildFootageLook: async () => builtInLookAsPrepared(look),
        fetchImage: async () => Buffer.alloc(0),
        fetchRecording: async () => {},
      });
    if (prepare) await prepareNow();
    return { version: bot.version, prepareNow };
  }
  /** What the engine was handed for the last clip it rendered: the look's prefix, its body sprite's bytes, the voice. */
  const lastRender = () => {
    const input = videoInput(renderClip.mock.calls.at(-1)![0]);
    return { look: input.bot.look, body: readFileSync(join(input.lookDirectory!, 'body.png')), voice: input.voice.id };
  };

  it('renders each clip with the look and voice its video was accepted with: while the new look prepares, and after it retired the old one', async () => {
    const first = await putBot('espeak:en-gb+m3', 'leo');
    const [during, after] = [
      await submit([{ bot_uid: 'pinned', text: 'Rendered while replaced' }]),
      await submit([{ bot_uid: 'pinned', text: 'Rendered after' }]),
    ];
    const [duringMessage, afterMessage] = renderQueue.take();
    const second = await putBot('espeak:es+f3', 'maya', false);
    // While the replacement prepares, new videos of the bot are refused; the accepted one renders with its look.
    await expect(submit([{ bot_uid: 'pinned', text: 'Too soon' }])).rejects.toBeInstanceOf(ConflictError);
    await runQueueJob(renderJob, duringMessage!, 1, 3, clipDeps);
    expect((await videos.get(during.videoId))!.clipResults['0']).toMatchObject({ status: 'rendered' });
    const leo = builtInLookAsPrepared('leo').files.get('body.png')!;
    expect(lastRender()).toEqual({ look: lookPrefix(caller.tenantId, 'pinned', first.version), body: leo, voice: 'espeak:en-gb+m3' });
    // The replacement settles: the first look moves to retired-looks/, where the other accepted video finds it.
    await second.prepareNow();
    expect(objects.has(`${lookPrefix(caller.tenantId, 'pinned', first.version)}/body.png`)).toBe(false);
    // Rendered by another container (nothing of the look in its /tmp): it reads the look from retired-looks/.
    const read = vi.spyOn(objects, 'getToFile');
    await runQueueJob(renderJob, afterMessage!, 1, 3, {
      ...clipDeps,
      lookDirectory: lookDirectories(objects, await mkdtemp(join(tmpdir(), 'looks-'))),
    });
    expect(read.mock.calls.map(([key]) => key)).toContain(`retired-${lookPrefix(caller.tenantId, 'pinned', first.version)}/body.png`);
    read.mockRestore();
    expect((await videos.get(after.videoId))!.clipResults['0']).toMatchObject({ status: 'rendered' });
    expect(lastRender()).toEqual({ look: lookPrefix(caller.tenantId, 'pinned', first.version), body: leo, voice: 'espeak:en-gb+m3' });
    // A video accepted now renders with the new look and voice.
    await submit([{ bot_uid: 'pinned', text: 'Rendered new' }]);
    await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, clipDeps);
    expect(lastRender()).toEqual({
      look: lookPrefix(caller.tenantId, 'pinned', second.version),
      body: builtInLookAsPrepared('maya').files.get('body.png')!,
      voice: 'espeak:es+f3',
    });
    // Deleted: its looks go, retired ones too, and a video still waiting fails as bot_not_found.
    const waiting = await submit([{ bot_uid: 'pinned', text: 'Never rendered' }]);
    await deleteAccountBot(caller.tenantId, 'pinned', { accountBots: clipDeps.accountBots as DynamoAccountBotStore, objects });
    expect(objects.has(`retired-${lookPrefix(caller.tenantId, 'pinned', first.version)}/body.png`)).toBe(false);
    await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, clipDeps);
    expect(await videos.get(waiting.videoId)).toMatchObject({ status: 'failed', error: { code: 'bot_not_found' } });
  });

  it('a video of a bot deleted and made again under the same uid fails as bot_not_found: it never draws the deleted look', async () => {
    const deleted = await putBot('espeak:en-gb+m3', 'leo');
    // Its look is in this container's /tmp from an earlier render.
    await submit([{ bot_uid: 'pinned', text: 'Warm the look' }]);
    await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, clipDeps);
    expect(lastRender().look).toBe(lookPrefix(caller.tenantId, 'pinned', deleted.version));
    const waiting = await submit([{ bot_uid: 'pinned', text: 'Waiting for the deleted bot' }]);
    await deleteAccountBot(caller.tenantId, 'pinned', { accountBots: clipDeps.accountBots as DynamoAccountBotStore, objects });
    await putBot('espeak:es+f3', 'maya');
    renderClip.mockClear();
    await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, clipDeps);
    expect(renderClip).not.toHaveBeenCalled();
    expect(await videos.get(waiting.videoId)).toMatchObject({ status: 'failed', error: { code: 'bot_not_found' } });
  });
});
