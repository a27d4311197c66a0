/**
 * The media engine's tests with real ffmpeg share: Ava and short texts, the 1280x720 frame, clips rendered with
 * espeak-ng (remembering the speech) into a scratch folder, where the bot sits for a position, and two sample
 * backgrounds (green with a 1 kHz tone, and a silent plasma) made once per file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { BUILT_IN_BOTS } from '#domain/bot';
import type { BotPosition } from '#domain/choices';
import type { SpeechScript } from '#domain/lexicon';
import { DEFAULT_SHAPE, frameSizeOf } from '#domain/shape';
import { type SpeechVoice, voiceToSpeak } from '#domain/voices';
import { type BackgroundMedia, inspectBackground } from '#functions/media/background-media.ts';
import { type RenderClipInput, renderClip, type SpeechEngine, type SpeechResult } from '#functions/render/engine/index.ts';
import { botHeightFor, layoutFor } from '#functions/render/engine/layout.ts';
import { loadSprites } from '#functions/render/engine/sprites.ts';
import { EspeakSpeechEngine } from '#functions/render/speech/index.ts';
import { makeSampleBackground } from '#infra/scripts/make-sample-background.ts';

export const ava = BUILT_IN_BOTS.find((b) => b.look === 'ava')!;
const SHORT = 'Hello, this is a test.';
export const TINY = 'Hi there.';
/** These tests measure the 1280x720 frame; test/integration/render/shapes.test.ts renders the others. */
export const FRAME = frameSizeOf(DEFAULT_SHAPE);

/** espeak-ng, remembering what it produced so durations can be checked against the speech. */
class RecordingSpeech implements SpeechEngine {
  readonly name = 'espeak';
  readonly results: SpeechResult[] = [];
  private readonly inner = new EspeakSpeechEngine();
  async synthesize(script: SpeechScript, voice: SpeechVoice, workDir: string) {
    const result = await this.inner.synthesize(script, voice, workDir);
    this.results.push(result);
    return result;
  }
}

export let root: string;
export let greenWithTone: BackgroundMedia;
export let silentBackground: BackgroundMedia;
let counter = 0;

export async function render(overrides: Partial<RenderClipInput>) {
  const workDir = mkdtempSync(join(root, `clip${counter++}-`));
  const speech = new RecordingSpeech();
  const output = await renderClip({
    bot: ava,
    text: SHORT,
    voice: voiceToSpeak(ava.voice, undefined, { polly: false }),
    position: 'top-left',
    removeBotBackground: false,
    backgroundVolume: 0,
    transitions: {},
    frame: FRAME,
    mode: 'video',
    workDir,
    speech,
    ...overrides,
  });
  const spoken = speech.results[0]!;
  return { ...output, speech: spoken };
}

/** Where the bot's canvas sits for a position. */
export function botRect(position: BotPosition, look = 'ava') {
  const sprites = loadSprites(look, botHeightFor(FRAME, position));
  const place = layoutFor(FRAME, position, sprites.manifest);
  return { x: place.x, y: place.y, w: sprites.width, h: sprites.height, sprites };
}

/** Makes the sample backgrounds and the scratch folder before the calling file's tests, and removes them after. */
export function useEngineBackgrounds() {
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'vidbot-engine-'));
    const [green, silent] = await Promise.all([
      makeSampleBackground(join(root, 'green.mp4'), { seconds: 3, pattern: 'solid', color: '0x20c040', audio: 'tone', toneHz: 1000 }),
      makeSampleBackground(join(root, 'silent.mp4'), { seconds: 2, pattern: 'plasma', audio: 'none' }),
    ]);
    [greenWithTone, silentBackground] = await Promise.all([inspectBackground(green, root), inspectBackground(silent, root)]);
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));
}
