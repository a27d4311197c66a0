/**
 * The render function's warm-up, run once while its execution environment initialises (Lambda's INIT phase, which
 * provisioned concurrency and the local runtime's `prewarm` run before any request): one short clip of the default
 * built-in bot at 16:9 720p over the default backdrop. What a first render would otherwise pay on its own time is
 * paid here: the espeak-ng thread and its WebAssembly, the look's artwork decoded and scaled to the most asked-for
 * size, the compositor's code compiled by V8, and ffmpeg's binary read from disk.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { logger } from '#commons/logger';
import { BUILT_IN_BOTS } from '#domain/bot';
import { frameSizeOf } from '#domain/shape';
import { type VoiceOptions, voiceToSpeak } from '#domain/voices';
import { renderClip } from './engine/index.ts';
import { speechEngineFor } from './speech/index.ts';

/**
 * Lambda gives an on-demand environment's INIT phase 10 s; past that it starts the environment again inside the first
 * request. The warm-up is waited for at most this long: a slower one finishes in the background during that request.
 */
const WARM_UP_WAIT_MS = 6_000;

/**
 * Renders the warm-up clip in the bot's voice as the deployment speaks it (`voices`), waiting at most
 * `WARM_UP_WAIT_MS`; a failure is logged and otherwise ignored (the first real render then pays the cost).
 */
export async function warmUpRender(voices: VoiceOptions, waitMs = WARM_UP_WAIT_MS): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      logger.warn('render warm-up still running; not waiting for it', { waitedMs: waitMs });
      resolve();
    }, waitMs);
    timer.unref();
  });
  await Promise.race([renderWarmUpClip(voices), waited]);
  clearTimeout(timer);
}

async function renderWarmUpClip(voices: VoiceOptions): Promise<void> {
  const started = performance.now();
  const workDir = mkdtempSync(join(tmpdir(), 'render-warm-up-'));
  try {
    const bot = BUILT_IN_BOTS[0]!;
    const voice = voiceToSpeak(bot.voice, undefined, voices);
    await renderClip({
      bot,
      text: 'Hello.',
      voice,
      position: 'bottom-right',
      botSize: 'medium',
      removeBotBackground: false,
      backgroundVolume: 0,
      transitions: { entry: 'fade_in', exit: 'fade_out' },
      frame: frameSizeOf({ aspectRatio: '16:9', resolution: '720p' }),
      mode: 'video',
      workDir,
      speech: speechEngineFor(voice),
    });
    logger.info('render warmed up', { ms: Math.round(performance.now() - started) });
  } catch (error) {
    logger.warn('render warm-up failed', { error: error instanceof Error ? error.message : String(error) });
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}
